import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import {
  AUDIT_REDACTED,
  auditPageSchema,
  Role,
  TOPICS,
  type AuditEntryView,
  type AuditRecorded,
  type ChannelView,
  type Page,
} from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { AdminClient, adminEnv } from './admin-client';

jest.setTimeout(60_000);

/**
 * The audit trail: admin's own changes (channels, options, changelog, incidents) go through its
 * outbox onto audit.recorded like every other service's, and come back from the topic into the
 * trail once each, listed by GET /api/audit for administrators.
 */
describe.each(INFRASTRUCTURES)('audit trail on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let admin: RunningService;
  let client: AdminClient;
  const secret = randomBytes(32).toString('hex');
  const operator = randomInt(100_000, 900_000);

  const audit = async (query: string, role: Role = Role.Admin) => {
    const answer = await client.call<Page<AuditEntryView>>(`/api/audit?${query}`, { role });
    expect(answer.status).toBe(200);
    return auditPageSchema.parse(answer.body.data);
  };
  const entriesFor = (query: string, count: number) =>
    eventually(`${count} audit entries for ${query}`, async () => {
      const page = await audit(query);
      return page.total >= count ? page : undefined;
    });

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-audit-it');
    await infra.runtime.bus.ensureTopics([TOPICS.catalogOption, TOPICS.catalogChannel, TOPICS.auditRecorded]);
    const database = await infra.createDatabase();
    admin = await startAdmin(
      adminEnv(database.url, secret, randomBytes(32), { AUDIT_CONSUMER_GROUP: `admin.audit.${infra.runId}` }),
      infra.runtime,
    );
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  });

  afterAll(async () => {
    await admin?.close();
    await infra?.close();
  });

  it("records a channel's creation, changes and deletion with who did it, never its key", async () => {
    const key = `sk-audit-${randomBytes(12).toString('hex')}`;
    const newKey = `sk-audit-${randomBytes(12).toString('hex')}`;
    const created = await client.call<ChannelView>('/api/channel/', {
      method: 'POST',
      userId: operator,
      body: { type: 1, name: 'audited', key, base_url: 'https://upstream.example.test/', models: 'gpt-4o' },
    });
    expect(created.status).toBe(200);
    const id = created.body.data!.id;
    const changes = [
      { id, priority: 7 },
      { id, key: newKey },
    ];
    for (const body of changes) {
      expect((await client.call('/api/channel/', { method: 'PUT', userId: operator, body })).status).toBe(
        200,
      );
    }
    expect((await client.call(`/api/channel/${id}`, { method: 'DELETE', userId: operator })).status).toBe(
      200,
    );

    const trail = await entriesFor(`target_kind=channel&target_id=${id}`, 4);

    expect(trail.items.map((entry) => entry.action)).toEqual([
      'channel.delete',
      'channel.update',
      'channel.update',
      'channel.create',
    ]);
    expect(trail.items.every((entry) => entry.actor_id === operator && entry.actor_role === Role.Admin)).toBe(
      true,
    );
    expect(trail.items.every((entry) => entry.service === 'admin')).toBe(true);
    const [deleted, keyChange, priorityChange, creation] = trail.items;
    expect(creation).toMatchObject({ before: null, after: { name: 'audited', key: AUDIT_REDACTED } });
    expect(priorityChange).toMatchObject({
      changed: ['priority'],
      before: { priority: 0 },
      after: { priority: 7 },
    });
    expect(keyChange!.changed).toEqual(expect.arrayContaining(['key']));
    expect(deleted).toMatchObject({ after: null, before: { name: 'audited', priority: 7 } });
    const everything = JSON.stringify(trail);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(newKey);
    expect(everything).not.toContain(key.slice(-4));
  });

  it('records options, the changelog and incidents, and filters by actor, action and time', async () => {
    const root = operator + 1;
    expect(
      (
        await client.call('/api/option/', {
          method: 'PUT',
          role: Role.Root,
          userId: root,
          body: { key: 'Footer', value: 'a' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await client.call('/api/option/', {
          method: 'PUT',
          role: Role.Root,
          userId: root,
          body: { key: 'Footer', value: 'b' },
        })
      ).status,
    ).toBe(200);
    const version = await client.call<{ id: number }>('/api/versions', {
      method: 'POST',
      userId: root,
      body: {
        version: `v${randomInt(1000, 9999)}`,
        title: 'Release',
        content: '',
        release_date: '2026-11-25',
      },
    });
    expect(version.status).toBe(200);
    const incident = await client.call<{ id: number }>('/api/incident', {
      method: 'POST',
      userId: root,
      body: { title: 'Slow answers', status: 'investigating', severity: 'minor', components: ['api'] },
    });
    expect(incident.status).toBe(200);

    const byRoot = await entriesFor(`actor_id=${root}`, 4);

    expect(byRoot.items.map((entry) => `${entry.action} ${entry.target_kind}`)).toEqual([
      'incident.create incident',
      'version.create version',
      'option.update option',
      'option.update option',
    ]);
    expect(byRoot.items[2]).toMatchObject({
      before: { Footer: 'a' },
      after: { Footer: 'b' },
      actor_role: Role.Root,
    });
    expect(byRoot.items[3]).toMatchObject({ before: null, after: { Footer: 'a' } });
    const options = await audit(`actor_id=${root}&action=option.update&page_size=1`);
    expect(options).toMatchObject({ page: 1, page_size: 1, total: 2 });
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await audit(`actor_id=${root}&start_timestamp=${future}`)).total).toBe(0);
    expect((await audit(`actor_id=${root}&end_timestamp=${future}`)).total).toBe(4);
  });

  it('names a changelog version and an incident as operators know them, a deleted one by what it was', async () => {
    const editor = operator + 3;
    const number = `v${randomInt(1000, 9999)}.${randomInt(0, 99)}`;
    const created = await client.call<{ id: number }>('/api/versions', {
      method: 'POST',
      userId: editor,
      body: { version: number, title: 'Faster chat', content: '', release_date: '2026-11-25' },
    });
    expect(created.status).toBe(200);
    const versionId = created.body.data!.id;
    const renamed = { id: versionId, version: `${number}.1`, title: 'Faster chat, fixed' };
    expect(
      (await client.call('/api/versions', { method: 'PUT', userId: editor, body: renamed })).status,
    ).toBe(200);
    expect(
      (await client.call(`/api/versions/${versionId}`, { method: 'DELETE', userId: editor })).status,
    ).toBe(200);
    const incident = await client.call<{ id: number }>('/api/incident', {
      method: 'POST',
      userId: editor,
      body: { title: 'Slow answers', status: 'investigating', severity: 'minor', components: ['api'] },
    });
    expect(incident.status).toBe(200);
    expect(
      (await client.call(`/api/incident/${incident.body.data!.id}`, { method: 'DELETE', userId: editor }))
        .status,
    ).toBe(200);

    const trail = await entriesFor(`actor_id=${editor}`, 5);

    expect(trail.items.map((entry) => [entry.action, entry.target_id, entry.target_name])).toEqual([
      ['incident.delete', String(incident.body.data!.id), 'Slow answers'],
      ['incident.create', String(incident.body.data!.id), 'Slow answers'],
      ['version.delete', String(versionId), `${number}.1 — Faster chat, fixed`],
      ['version.update', String(versionId), `${number}.1 — Faster chat, fixed`],
      ['version.create', String(versionId), `${number} — Faster chat`],
    ]);
  });

  it('stores a redelivered event once, and skips what is not an audit event', async () => {
    const event: AuditRecorded = {
      v: 1,
      event_id: randomUUID(),
      service: 'billing',
      actor_id: operator + 2,
      actor_role: Role.Admin,
      action: 'promo.delete',
      target_kind: 'promo',
      target_id: '42',
      changed: ['active'],
      before: { active: true },
      after: null,
      request_id: 'req-audit-1',
      occurred_at_ms: Date.now(),
    };
    const record = { topic: TOPICS.auditRecorded.name, key: 'promo:42', value: event };
    await infra.runtime.bus.publish([
      record,
      { topic: TOPICS.auditRecorded.name, key: 'x', value: { v: 2, anything: true } },
      record,
    ]);
    await infra.runtime.bus.publish([record]);
    const marker = { ...event, event_id: randomUUID(), action: 'promo.update' };
    await infra.runtime.bus.publish([{ ...record, value: marker }]);

    const trail = await entriesFor(`actor_id=${operator + 2}`, 2);

    expect(trail.items.map((entry) => entry.action)).toEqual(['promo.update', 'promo.delete']);
    expect(trail.items[1]).toMatchObject({ service: 'billing', request_id: 'req-audit-1', target_id: '42' });
  });

  it('lists the trail for administrators only', async () => {
    const answers = await Promise.all([
      client.call('/api/audit', { role: Role.User }),
      client.call('/api/audit', { role: null }),
      client.call('/api/audit?actor_id=abc'),
      client.call('/api/audit?page_size=1000'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([403, 401, 400, 400]);
    expect(answers[0]!.body).toMatchObject({ success: false });
  });
});
