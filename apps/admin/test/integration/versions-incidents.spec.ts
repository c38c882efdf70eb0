import { randomBytes } from 'node:crypto';
import { Role, type Page } from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  INFRASTRUCTURES,
  openInfrastructure,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import type { IncidentView } from '../../src/incidents/incident-requests';
import type { VersionView } from '@tollgate/contracts';
import { AdminClient, adminEnv } from './admin-client';

jest.setTimeout(60_000);

describe.each(INFRASTRUCTURES)('versions and incidents on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let admin: RunningService;
  let client: AdminClient;
  const secret = randomBytes(32).toString('hex');

  const versions = async (query = '') =>
    (await client.call<Page<VersionView>>(`/api/versions${query}`, { role: null })).body.data!;
  const incidents = async (query = '') =>
    (await client.call<Page<IncidentView>>(`/api/incident/${query}`, { role: null })).body.data!;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-versions-it');
    const database = await infra.createDatabase();
    admin = await startAdmin(adminEnv(database.url, secret, randomBytes(32)), infra.runtime);
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  });

  afterAll(async () => {
    await admin?.close();
    await infra?.close();
  });

  it('keeps the changelog: public reads newest release first, administrators write', async () => {
    const older = await client.call<VersionView>('/api/versions', {
      method: 'POST',
      body: { version: '1.3.0', title: 'Claude models', release_date: '2026-10-01' },
    });
    const newer = await client.call<VersionView>('/api/versions', {
      method: 'POST',
      body: {
        version: '1.4.0',
        title: 'Gemini',
        content: '- Gemini 2.5\n- <b>faster</b>',
        release_date: '2026-11-20',
      },
    });
    expect(newer.status).toBe(200);
    expect(newer.body.data).toEqual({
      id: expect.any(Number),
      version: '1.4.0',
      title: 'Gemini',
      content: '- Gemini 2.5\n- <b>faster</b>',
      release_date: '2026-11-20',
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
    });
    expect((await versions()).items.map((v) => v.version)).toEqual(['1.4.0', '1.3.0']);
    expect(await versions('?p=2&page_size=1')).toMatchObject({ page: 2, page_size: 1, total: 2 });

    const edited = await client.call<VersionView>('/api/versions', {
      method: 'PUT',
      body: { id: older.body.data!.id, title: 'Claude 4.5 models', release_date: '2026-12-01' },
    });
    expect(edited.body.data).toMatchObject({ version: '1.3.0', title: 'Claude 4.5 models' });
    expect((await versions()).items.map((v) => v.version)).toEqual(['1.3.0', '1.4.0']);

    const duplicate = await client.call('/api/versions', {
      method: 'PUT',
      body: { id: older.body.data!.id, version: '1.4.0' },
    });
    expect(duplicate).toMatchObject({ status: 409, body: { success: false } });

    expect((await client.call(`/api/versions/${newer.body.data!.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect((await client.call(`/api/versions/${newer.body.data!.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    expect((await versions()).total).toBe(1);
  });

  it('keeps the incident log, stamping the time an incident is resolved and clearing it when reopened', async () => {
    const startedAt = Math.floor(Date.now() / 1000) - 3600;
    const created = await client.call<IncidentView>('/api/incident/', {
      method: 'POST',
      body: { title: 'Anthropic errors', severity: 'major', started_at: startedAt },
    });
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      title: 'Anthropic errors',
      description: '',
      status: 'investigating',
      severity: 'major',
      components: [],
      updates: [{ status: 'investigating', text: '', created_at: startedAt }],
      started_at: startedAt,
      resolved_at: 0,
      created_time: expect.any(Number),
      updated_time: expect.any(Number),
    });
    const id = created.body.data!.id;
    const newest = await client.call<IncidentView>('/api/incident/', {
      method: 'POST',
      body: { title: 'Slow answers', status: 'monitoring' },
    });

    const resolved = await client.call<IncidentView>(`/api/incident/${id}`, {
      method: 'PUT',
      body: { status: 'resolved', description: 'Upstream recovered.' },
    });
    expect(resolved.body.data).toMatchObject({ status: 'resolved', description: 'Upstream recovered.' });
    expect(Math.abs(resolved.body.data!.resolved_at - Date.now() / 1000)).toBeLessThan(60);
    const reopened = await client.call<IncidentView>(`/api/incident/${id}`, {
      method: 'PUT',
      body: { status: 'identified' },
    });
    expect(reopened.body.data).toMatchObject({ status: 'identified', resolved_at: 0 });

    expect((await incidents()).items.map((incident) => incident.id)).toEqual([newest.body.data!.id, id]);
    expect((await client.call(`/api/incident/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await client.call(`/api/incident/${id}`, { method: 'PUT', body: { title: 'x' } })).status).toBe(
      404,
    );
  });

  it("answers an operator's mistake in the interface language: Russian by default, English when asked", async () => {
    const release = await client.call<VersionView>('/api/versions', {
      method: 'POST',
      body: { version: '2.0.0', title: 'Audit', release_date: '2026-11-28' },
    });
    const again = {
      method: 'POST' as const,
      body: { version: '2.0.0', title: 'Again', release_date: '2026-11-28' },
    };
    expect(await client.call('/api/versions', { ...again, language: 'ru' })).toMatchObject({
      status: 409,
      body: { success: false, message: 'version: такая версия уже есть' },
    });
    expect(await client.call('/api/versions', { ...again, language: 'en-US,en;q=0.9' })).toMatchObject({
      status: 409,
      body: { success: false, message: 'version: already exists' },
    });
    expect(await client.call('/api/incident/999999', { method: 'DELETE' })).toMatchObject({
      status: 404,
      body: { success: false, message: 'Инцидент не найден' },
    });
    const open = await client.call<IncidentView>('/api/incident/', {
      method: 'POST',
      body: { title: 'Slow chat', severity: 'minor' },
    });
    expect(
      await client.call(`/api/incident/${open.body.data!.id}`, {
        method: 'PUT',
        body: { resolved_at: Math.floor(Date.now() / 1000) },
      }),
    ).toMatchObject({
      status: 400,
      body: { message: 'resolved_at: время устранения указывается только со статусом resolved' },
    });
    expect(release.status).toBe(200);
  });

  it('says what was done in the interface language: Russian by default, English when asked', async () => {
    const release = await client.call<VersionView>('/api/versions', {
      method: 'POST',
      body: { version: '3.0.0', title: 'Chat', release_date: '2026-11-29' },
    });
    expect(release.body).toMatchObject({ success: true, message: 'Версия создана' });
    const id = release.body.data!.id;
    const english = { language: 'en-US,en;q=0.9' };
    expect(
      (await client.call('/api/versions', { method: 'PUT', body: { id, title: 'Chats' }, ...english })).body,
    ).toMatchObject({ success: true, message: 'Version updated' });
    expect((await client.call(`/api/versions/${id}`, { method: 'DELETE' })).body.message).toBe(
      'Версия удалена',
    );

    const incident = await client.call<IncidentView>('/api/incident/', {
      method: 'POST',
      body: { title: 'Slow answers' },
      ...english,
    });
    expect(incident.body).toMatchObject({ success: true, message: 'Incident created' });
    const path = `/api/incident/${incident.body.data!.id}`;
    expect((await client.call(path, { method: 'PUT', body: { status: 'resolved' } })).body.message).toBe(
      'Инцидент обновлён',
    );
    expect((await client.call(path, { method: 'DELETE', ...english })).body.message).toBe('Incident deleted');
  });

  it('lets only administrators change versions and incidents', async () => {
    const answers = await Promise.all([
      client.call('/api/versions', {
        method: 'POST',
        body: { version: '9.9.9', title: 'x', release_date: '2026-01-01' },
        role: Role.User,
      }),
      client.call('/api/versions/1', { method: 'DELETE', role: null }),
      client.call('/api/incident/', { method: 'POST', body: { title: 'x' }, role: Role.User }),
      client.call('/api/incident/1', { method: 'PUT', body: { title: 'x' }, role: null }),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([403, 401, 403, 401]);
    expect((await versions()).items.map((v) => v.version)).not.toContain('9.9.9');
  });

  const badVersions: [string, unknown][] = [
    ['no version', { title: 'x', release_date: '2026-01-01' }],
    ['HTML in the version', { version: '<b>1</b>', title: 'x', release_date: '2026-01-01' }],
    ['an empty title', { version: '2.0.0', title: ' ', release_date: '2026-01-01' }],
    ['control characters in the title', { version: '2.0.0', title: 'a\u0000', release_date: '2026-01-01' }],
    ['an impossible date', { version: '2.0.0', title: 'x', release_date: '2026-02-30' }],
    ['a date as a number', { version: '2.0.0', title: 'x', release_date: 20260101 }],
    [
      '1 MB of content',
      { version: '2.0.0', title: 'x', release_date: '2026-01-01', content: 'c'.repeat(1_000_000) },
    ],
  ];

  it.each(badVersions)('refuses a version with %s and stores nothing', async (_case, body) => {
    const before = (await versions()).total;
    const answer = await client.call('/api/versions', { method: 'POST', body });

    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    expect((await versions()).total).toBe(before);
  });

  const badIncidents: [string, unknown][] = [
    ['no title', { severity: 'minor' }],
    ['a 201-character title', { title: 't'.repeat(201) }],
    ['an unknown status', { title: 'x', status: 'on fire' }],
    ['an unknown severity', { title: 'x', severity: 'apocalyptic' }],
    ['a start time as text', { title: 'x', started_at: '2026-01-01' }],
    ['a start time in milliseconds far in the future', { title: 'x', started_at: 1_800_000_000_000_000 }],
    ['SQL in the status', { title: 'x', status: "resolved'; drop table incidents; --" }],
  ];

  it.each(badIncidents)('refuses an incident with %s and stores nothing', async (_case, body) => {
    const before = (await incidents()).total;
    const answer = await client.call('/api/incident/', { method: 'POST', body });

    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.success).toBe(false);
    expect((await incidents()).total).toBe(before);
  });
});
