import { randomBytes } from 'node:crypto';
import { Role, type IncidentView, type Page, type StatusPage } from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  INFRASTRUCTURES,
  openInfrastructure,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { AdminClient, adminEnv } from './admin-client';

jest.setTimeout(60_000);

const HOUR = 3600;

/**
 * What an operator writes for readers of both languages, and when: English texts beside the default
 * (Russian) ones, read back through the public reads; the start and resolution times the web editor
 * sets, refused in the caller's language when the resolution comes before the start.
 */
describe.each(INFRASTRUCTURES)('incident and notice texts, incident times on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let admin: RunningService;
  let client: AdminClient;
  const secret = randomBytes(32).toString('hex');

  const publicIncident = async (id: number) => {
    const answer = await client.call<Page<IncidentView>>('/api/incident/', { role: null });
    return answer.body.data!.items.find((incident) => incident.id === id)!;
  };
  const notice = async (query = '') =>
    (await client.call<string>(`/api/notice${query}`, { role: null })).body;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-incident-texts-it');
    const database = await infra.createDatabase();
    admin = await startAdmin(adminEnv(database.url, secret, randomBytes(32)), infra.runtime);
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  });

  afterAll(async () => {
    await admin?.close();
    await infra?.close();
  });

  it('keeps English title, description and update texts beside the default ones, absent where none was written', async () => {
    const created = await client.call<IncidentView>('/api/incident/', {
      method: 'POST',
      body: {
        title: 'Ответы GPT задерживаются',
        title_en: 'GPT answers are delayed',
        description: 'Разбираемся.',
        description_en: 'We are looking into it.',
        update: 'Первый канал не отвечает.',
        update_en: 'The primary channel does not answer.',
      },
    });
    expect(created.status).toBe(200);
    const id = created.body.data!.id;
    await client.call(`/api/incident/${id}`, {
      method: 'PUT',
      body: {
        status: 'monitoring',
        update: 'Переключили на запасной.',
        update_en: 'Switched to the fallback.',
      },
    });
    await client.call(`/api/incident/${id}`, { method: 'PUT', body: { update: 'Только по-русски.' } });

    const read = await publicIncident(id);
    expect(read).toMatchObject({
      title: 'Ответы GPT задерживаются',
      title_en: 'GPT answers are delayed',
      description: 'Разбираемся.',
      description_en: 'We are looking into it.',
    });
    expect(read.updates.map((update) => [update.text, update.text_en])).toEqual([
      ['Первый канал не отвечает.', 'The primary channel does not answer.'],
      ['Переключили на запасной.', 'Switched to the fallback.'],
      ['Только по-русски.', undefined],
    ]);
    expect(read.updates[2]).not.toHaveProperty('text_en');

    // Clearing the English title leaves the default for everyone; the status page tells the same.
    await client.call(`/api/incident/${id}`, { method: 'PUT', body: { title_en: '  ' } });
    const page = (await client.call<StatusPage>('/api/status/page', { role: null })).body.data!;
    const onPage = page.open_incidents.find((incident) => incident.id === id)!;
    expect(onPage).not.toHaveProperty('title_en');
    expect(onPage.description_en).toBe('We are looking into it.');
  });

  it('answers the English notice to ?lang=en when one is set, the default notice otherwise and to everyone else', async () => {
    const put = (key: string, value: string) =>
      client.call('/api/option/', { method: 'PUT', body: { key, value }, role: Role.Root });
    expect((await put('Notice', 'Работы в воскресенье в 03:00 МСК.')).status).toBe(200);
    expect((await notice('?lang=en')).data).toBe('Работы в воскресенье в 03:00 МСК.');

    expect((await put('NoticeEn', 'Maintenance on Sunday at 03:00 MSK.')).status).toBe(200);
    expect(await notice()).toEqual({ success: true, message: '', data: 'Работы в воскресенье в 03:00 МСК.' });
    expect((await notice('?lang=ru')).data).toBe('Работы в воскресенье в 03:00 МСК.');
    expect((await notice('?lang=en')).data).toBe('Maintenance on Sunday at 03:00 MSK.');

    expect((await put('NoticeEn', '')).status).toBe(200);
    expect((await notice('?lang=en')).data).toBe('Работы в воскресенье в 03:00 МСК.');
  });

  it('keeps a start in the future and a resolution the operator sets, and refuses one before the start in the caller’s language', async () => {
    const now = Math.floor(Date.now() / 1000);
    const planned = await client.call<IncidentView>('/api/incident/', {
      method: 'POST',
      body: { title: 'Плановые работы', severity: 'minor', started_at: now + 2 * HOUR },
    });
    const id = planned.body.data!.id;
    expect(await publicIncident(id)).toMatchObject({ started_at: now + 2 * HOUR, resolved_at: 0 });

    const resolved = await client.call<IncidentView>(`/api/incident/${id}`, {
      method: 'PUT',
      body: { status: 'resolved', started_at: now - 2 * HOUR, resolved_at: now - HOUR },
    });
    expect(resolved.status).toBe(200);
    expect(await publicIncident(id)).toMatchObject({
      status: 'resolved',
      started_at: now - 2 * HOUR,
      resolved_at: now - HOUR,
    });

    const tooEarly = { method: 'PUT' as const, body: { resolved_at: now - 3 * HOUR } };
    expect(await client.call(`/api/incident/${id}`, { ...tooEarly, language: 'ru' })).toMatchObject({
      status: 400,
      body: { success: false, message: 'resolved_at: сбой не может быть устранён раньше, чем начался' },
    });
    expect(await client.call(`/api/incident/${id}`, { ...tooEarly, language: 'en' })).toMatchObject({
      status: 400,
      body: { success: false, message: 'resolved_at must not be before started_at' },
    });
    expect(await publicIncident(id)).toMatchObject({ resolved_at: now - HOUR });
  });
});
