import { randomBytes } from 'node:crypto';
import { MOSCOW_UTC_OFFSET_SECONDS, type IncidentView, type StatusPage } from '@tollgate/contracts';
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
const DAY = 24 * HOUR;

/** The start of the status page's 90-day window at `now`: 89 Moscow midnights before today's. */
const windowStart = (now: number) =>
  Math.floor((now + MOSCOW_UTC_OFFSET_SECONDS) / DAY) * DAY - MOSCOW_UTC_OFFSET_SECONDS - 89 * DAY;

describe.each(INFRASTRUCTURES)('public status page on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let admin: RunningService;
  let client: AdminClient;
  const secret = randomBytes(32).toString('hex');

  const statusPage = async () => {
    const answer = await client.call<StatusPage>('/api/status/page', { role: null });
    expect(answer.status).toBe(200);
    return answer.body.data!;
  };
  const createIncident = async (body: Record<string, unknown>) => {
    const answer = await client.call<IncidentView>('/api/incident/', { method: 'POST', body });
    expect(answer).toMatchObject({ status: 200, body: { success: true } });
    return answer.body.data!;
  };
  const updateIncident = (id: number, body: Record<string, unknown>) =>
    client.call<IncidentView>(`/api/incident/${id}`, { method: 'PUT', body });
  const state = (page: StatusPage) => Object.fromEntries(page.components.map((c) => [c.component, c.state]));

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-status-page-it');
    const database = await infra.createDatabase();
    admin = await startAdmin(adminEnv(database.url, secret, randomBytes(32)), infra.runtime);
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  });

  afterAll(async () => {
    await admin?.close();
    await infra?.close();
  });

  it('shows every component operational at 100% for 90 days to anyone while nothing is wrong', async () => {
    const page = await statusPage();
    expect(page).toMatchObject({
      overall: 'operational',
      window_days: 90,
      open_incidents: [],
      past_incidents: [],
    });
    expect(page.components.map((c) => [c.component, c.state, c.uptime_percent])).toEqual([
      ['api', 'operational', 100],
      ['chat', 'operational', 100],
      ['payments', 'operational', 100],
      ['web', 'operational', 100],
    ]);
    expect(page.components.every((c) => c.days.length === 90)).toBe(true);
  });

  it('keeps a timeline of updates: the first status, each change of status and each text', async () => {
    const startedAt = Math.floor(Date.now() / 1000) - 2 * HOUR;
    const incident = await createIncident({
      title: 'Chat answers stall',
      severity: 'minor',
      components: ['chat', 'api', 'chat'],
      started_at: startedAt,
      update: 'We are **looking** into it.',
    });
    expect(incident).toMatchObject({
      components: ['api', 'chat'],
      updates: [{ status: 'investigating', text: 'We are **looking** into it.', created_at: startedAt }],
    });
    await updateIncident(incident.id, { status: 'identified', update: 'An upstream throttles us.' });
    await updateIncident(incident.id, { update: '  Still on it.  ' });
    // Neither a new status nor a text: nothing to tell.
    const unchanged = await updateIncident(incident.id, {
      status: 'identified',
      title: 'Chat answers stall (GPT)',
    });
    expect(unchanged.body.data!.updates.map((u) => [u.status, u.text])).toEqual([
      ['investigating', 'We are **looking** into it.'],
      ['identified', 'An upstream throttles us.'],
      ['identified', 'Still on it.'],
    ]);

    const open = await statusPage();
    expect(state(open)).toEqual({
      api: 'degraded',
      chat: 'degraded',
      payments: 'operational',
      web: 'operational',
    });
    expect(open.overall).toBe('degraded');
    expect(open.open_incidents.map((i) => i.title)).toEqual(['Chat answers stall (GPT)']);
    expect(open.open_incidents[0]!.updates).toHaveLength(3);
    // A minor incident degrades; it is not downtime.
    expect(open.components.every((c) => c.uptime_percent === 100)).toBe(true);

    const resolved = await updateIncident(incident.id, { status: 'resolved', update: 'Fixed.' });
    expect(resolved.body.data!.updates.at(-1)).toMatchObject({ status: 'resolved', text: 'Fixed.' });
    const after = await statusPage();
    expect(after.overall).toBe('operational');
    expect(after.open_incidents).toEqual([]);
    expect(after.past_incidents.map((i) => i.id)).toEqual([incident.id]);
  });

  it('computes uptime from the outages of the last 90 days and leaves older incidents out', async () => {
    const now = Math.floor(Date.now() / 1000);
    const outageStart = now - 10 * DAY;
    await createIncident({
      title: 'Payments down',
      severity: 'critical',
      components: ['payments'],
      status: 'resolved',
      started_at: outageStart,
      resolved_at: outageStart + 6 * HOUR,
    });
    const old = await createIncident({
      title: 'Long ago',
      severity: 'critical',
      components: ['payments'],
      started_at: now - 200 * DAY,
    });
    const backdated = await updateIncident(old.id, { status: 'resolved', resolved_at: now - 199 * DAY });
    expect(backdated.body.data).toMatchObject({ resolved_at: now - 199 * DAY });
    expect(backdated.body.data!.updates.at(-1)).toEqual({
      status: 'resolved',
      text: '',
      created_at: now - 199 * DAY,
    });
    const webOutage = await createIncident({
      title: 'Site unreachable',
      severity: 'major',
      components: ['web'],
      started_at: now - HOUR,
      status: 'identified',
    });

    const page = await statusPage();
    expect(state(page)).toMatchObject({ payments: 'operational', web: 'outage' });
    expect(page.overall).toBe('outage');
    expect(page.past_incidents.map((i) => i.title)).toContain('Payments down');
    expect(page.past_incidents.map((i) => i.title)).not.toContain('Long ago');
    expect(page.open_incidents.map((i) => i.id)).toEqual([webOutage.id]);

    const elapsed = page.generated_at - windowStart(page.generated_at);
    const payments = page.components.find((c) => c.component === 'payments')!;
    expect(payments.uptime_percent).toBe(Math.floor(((elapsed - 6 * HOUR) * 100_000) / elapsed) / 1000);
    expect(payments.days.filter((d) => d.worst_state === 'outage').length).toBeGreaterThanOrEqual(1);
    const web = page.components.find((c) => c.component === 'web')!;
    expect(web.uptime_percent).toBeLessThan(100);
    expect(web.days.at(-1)!.worst_state).toBe('outage');
    expect(page.components.find((c) => c.component === 'api')!.uptime_percent).toBe(100);
    await updateIncident(webOutage.id, { status: 'resolved' });
  });

  const badRequests: [string, Record<string, unknown>][] = [
    ['an unknown component', { title: 'x', components: ['database'] }],
    ['components as text', { title: 'x', components: 'api' }],
    ['a resolution time on an open incident', { title: 'x', resolved_at: 1_767_000_000 }],
    [
      'a resolution before the start',
      { title: 'x', status: 'resolved', started_at: 1_767_000_000, resolved_at: 1_766_000_000 },
    ],
    ['an update that is not text', { title: 'x', update: 42 }],
  ];

  it.each(badRequests)('refuses an incident with %s and stores nothing', async (_case, body) => {
    const before = (await client.call<{ total: number }>('/api/incident/', { role: null })).body.data!.total;
    const answer = await client.call('/api/incident/', { method: 'POST', body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    expect((await client.call<{ total: number }>('/api/incident/', { role: null })).body.data!.total).toBe(
      before,
    );
  });

  it('refuses to resolve an incident before it started, or to date an open one, and changes nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    const incident = await createIncident({ title: 'Slow', started_at: now - HOUR });
    const early = await updateIncident(incident.id, { status: 'resolved', resolved_at: now - 2 * HOUR });
    expect(early).toMatchObject({ status: 400, body: { success: false } });
    const dated = await updateIncident(incident.id, { resolved_at: now });
    expect(dated).toMatchObject({ status: 400, body: { success: false } });
    const page = await statusPage();
    expect(page.open_incidents.find((i) => i.id === incident.id)).toMatchObject({
      status: 'investigating',
      resolved_at: 0,
      updates: [{ status: 'investigating' }],
    });
    await updateIncident(incident.id, { status: 'resolved' });
  });
});
