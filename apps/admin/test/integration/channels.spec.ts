import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import {
  CHANNEL_AUTO_DISABLE_CALL,
  CHANNEL_KEY_ENCRYPTION_PURPOSE,
  ChannelStatus,
  channelPageSchema,
  channelTestAnswerSchema,
  channelViewSchema,
  Role,
  servicePath,
  TOPICS,
  type CatalogChannel,
  type ChannelPage,
  type ChannelView,
} from '@tollgate/contracts';
import { deriveKey, SecretBox, ServiceTokenSigner } from '@tollgate/platform';
import type { RunningService } from '@tollgate/runtime';
import {
  aUsageRecorded,
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { AdminClient, adminEnv, type Answer } from './admin-client';
import { StandInRelay } from './stand-in-relay';

jest.setTimeout(90_000);

const KEY = (label: string) => `sk-${label}-${randomBytes(16).toString('hex')}`;

/** A channel body as new-api's UI sends it, with a fresh name and key. */
const aChannel = (overrides: Record<string, unknown> = {}) => ({
  type: 1,
  name: `openai ${randomBytes(4).toString('hex')}`,
  key: KEY('main'),
  base_url: 'https://upstream.example.test/',
  models: 'gpt-4o, gpt-4o-mini,gpt-4o',
  model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
  group: 'default,vip',
  priority: 5,
  weight: 10,
  tag: 'primary',
  auto_ban: 1,
  test_model: 'gpt-4o-mini',
  max_concurrency: 8,
  ...overrides,
});

describe.each(INFRASTRUCTURES)('channels on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let admin: RunningService;
  let client: AdminClient;
  let relay: StandInRelay;
  let channelEvents: TopicRecorder;
  const secret = randomBytes(32).toString('hex');
  const masterKey = randomBytes(32);
  const channelKeyBox = new SecretBox(deriveKey(masterKey, CHANNEL_KEY_ENCRYPTION_PURPOSE));

  const create = async (body: Record<string, unknown> = aChannel()): Promise<ChannelView> => {
    const answer = await client.call<ChannelView>('/api/channel/', { method: 'POST', body });
    expect(answer.status).toBe(200);
    return channelViewSchema.strict().parse(answer.body.data);
  };
  const read = async (id: number) => (await client.call<ChannelView>(`/api/channel/${id}`)).body.data!;
  const list = async (query = ''): Promise<ChannelPage> => {
    const answer = await client.call<ChannelPage>(`/api/channel/${query}`);
    expect(answer.status).toBe(200);
    return channelPageSchema.parse(answer.body.data);
  };
  /** The latest event of this channel (by id and name: the other admins' databases reuse ids). */
  const published = (
    channel: { id: number; name: string },
    match: (value: CatalogChannel) => boolean = () => true,
  ) =>
    eventually(`channel ${channel.id} on catalog.channel`, async () =>
      channelEvents
        .values<CatalogChannel>(
          (value) => value.id === channel.id && value.name === channel.name && match(value),
        )
        .at(-1),
    );
  const autoDisable = async (id: number, body: unknown, token?: string) =>
    client.call<{ id: number; status: number }>(servicePath(CHANNEL_AUTO_DISABLE_CALL, { id }), {
      method: 'POST',
      body,
      role: null,
      serviceToken:
        token ?? (await new ServiceTokenSigner(secret, CHANNEL_AUTO_DISABLE_CALL.audience).token()),
    });

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-channels-it');
    await infra.runtime.bus.ensureTopics([TOPICS.catalogChannel, TOPICS.catalogOption]);
    channelEvents = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.catalogChannel.name,
      `admin-channels.${infra.runId}`,
    );
    relay = await StandInRelay.start(secret);
  });

  afterAll(async () => {
    await relay?.close();
    await channelEvents?.stop();
    await infra?.close();
  });

  // On PGlite a running service holds the one connection: tests that start their own admin run after this one closes.
  describe('with one admin', () => {
    beforeAll(async () => {
      const database = await infra.createDatabase();
      admin = await startAdmin(
        adminEnv(database.url, secret, masterKey, {
          RELAY_URL: relay.url,
          CHANNEL_USAGE_CONSUMER_GROUP: `admin.channel-usage.${infra.runId}`,
        }),
        infra.runtime,
      );
      await waitUntilReady(admin.url);
      client = new AdminClient(admin.url, secret);
      if (kind === 'real') {
        // The shared broker's usage.recorded holds other runs' events, read from the start by this
        // fresh group: ids far above theirs keep those from landing on these channels.
        await withDatabase(database, (query) =>
          query("select setval('channels_id_seq', ?)", [100_000_000 + randomInt(1_000_000_000)]),
        );
      }
    });

    afterAll(async () => {
      await admin?.close();
    });

    it('creates, reads, updates and deletes a channel, the key masked in every answer and sealed on catalog.channel', async () => {
      const key = KEY('crud');
      const name = `renamed ${randomBytes(4).toString('hex')}`;
      const created = await create(aChannel({ name: 'OpenAI main', key }));

      expect(created).toEqual({
        id: expect.any(Number),
        type: 1,
        name: 'OpenAI main',
        key: `${key.slice(0, 4)}…${key.slice(-4)}`,
        base_url: 'https://upstream.example.test',
        models: 'gpt-4o,gpt-4o-mini',
        model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
        group: 'default,vip',
        priority: 5,
        weight: 10,
        tag: 'primary',
        status: ChannelStatus.Enabled,
        status_reason: '',
        status_time: 0,
        auto_ban: 1,
        test_model: 'gpt-4o-mini',
        response_time: 0,
        test_time: 0,
        test_error: null,
        used_quota: 0,
        max_concurrency: 8,
        other: '',
        created_time: expect.any(Number),
        stream_headers_timeout: null,
        breaker: null,
      });
      expect(await read(created.id)).toEqual(created);

      const event = await published(created);
      expect(event).toEqual({
        v: 1,
        id: created.id,
        type: 1,
        name: 'OpenAI main',
        key_encrypted: expect.stringMatching(/^v1\./),
        base_url: 'https://upstream.example.test',
        models: ['gpt-4o', 'gpt-4o-mini'],
        model_mapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
        groups: ['default', 'vip'],
        priority: 5,
        weight: 10,
        tag: 'primary',
        status: ChannelStatus.Enabled,
        auto_ban: true,
        test_model: 'gpt-4o-mini',
        max_concurrency: 8,
        updated_at: expect.any(Number),
      });
      expect(channelKeyBox.open(event.key_encrypted)).toBe(key);

      const newKey = KEY('rotated');
      const updated = await client.call<ChannelView>('/api/channel', {
        method: 'PUT',
        body: {
          id: created.id,
          key: newKey,
          models: ['claude-sonnet-4-5'],
          type: 14,
          status: 2,
          auto_ban: false,
        },
      });
      expect(updated).toMatchObject({ status: 200, body: { message: 'Канал обновлён' } });
      expect(updated.body.data).toEqual({
        ...created,
        key: `${newKey.slice(0, 4)}…${newKey.slice(-4)}`,
        models: 'claude-sonnet-4-5',
        type: 14,
        status: ChannelStatus.ManuallyDisabled,
        status_time: expect.any(Number),
        auto_ban: 0,
      });
      const keptKey = await client.call<ChannelView>('/api/channel', {
        method: 'PUT',
        body: { id: created.id, key: '', name },
      });
      expect(keptKey.body.data).toMatchObject({ name, key: updated.body.data!.key });
      const renamed = await published({ id: created.id, name });
      expect(renamed).toMatchObject({ type: 14, status: ChannelStatus.ManuallyDisabled, auto_ban: false });
      expect(channelKeyBox.open(renamed.key_encrypted)).toBe(newKey);

      const deleted = await client.call(`/api/channel/${created.id}`, { method: 'DELETE', language: 'en' });
      expect(deleted).toMatchObject({ status: 200, body: { success: true, message: 'Channel deleted' } });
      expect((await client.call(`/api/channel/${created.id}`)).status).toBe(404);
      expect((await client.call(`/api/channel/${created.id}`, { method: 'DELETE' })).status).toBe(404);
      await eventually('the tombstone on catalog.channel', async () =>
        channelEvents.records.find((record) => record.key === String(created.id) && record.value === null),
      );

      const everything = JSON.stringify([channelEvents.records, created, updated.body, keptKey.body]);
      for (const secretPart of [key.slice(4, -4), newKey.slice(4, -4)])
        expect(everything).not.toContain(secretPart);
    });

    it("keeps an Azure channel's API version in new-api's `other` and gives it to relay as api_version", async () => {
      const azure = await create(
        aChannel({ type: 3, base_url: 'https://tollgate.openai.azure.test', other: '2025-01-01-preview' }),
      );
      expect(azure).toMatchObject({ type: 3, other: '2025-01-01-preview' });
      expect(await published(azure)).toMatchObject({ type: 3, api_version: '2025-01-01-preview' });

      const cleared = await client.call<ChannelView>('/api/channel', {
        method: 'PUT',
        body: { id: azure.id, other: '' },
      });
      expect(cleared.body.data).toMatchObject({ other: '' });
      const republished = await published(azure, (value) => value.api_version === undefined);
      expect(republished).not.toHaveProperty('api_version');

      // Another type's `other` is kept as new-api keeps it, and means nothing to relay.
      const openai = await create(aChannel({ other: 'anything' }));
      expect(openai.other).toBe('anything');
      expect(await published(openai)).not.toHaveProperty('api_version');
    });

    it("takes new-api's {mode, channel} body, and in batch mode makes one channel per key line", async () => {
      const tag = `batch-${randomBytes(3).toString('hex')}`;
      const single = await client.call<ChannelView>('/api/channel/', {
        method: 'POST',
        body: { mode: 'single', channel: aChannel({ tag, models: ['deepseek-chat'], type: 43 }) },
      });
      expect(single.body.data).toMatchObject({ type: 43, models: 'deepseek-chat', tag });

      const keys = [KEY('b1'), KEY('b2'), KEY('b3')];
      const batch = await client.call<ChannelView[]>('/api/channel/', {
        method: 'POST',
        body: { mode: 'batch', channel: aChannel({ tag, key: `${keys.join('\n')}\n\n` }) },
      });
      expect(batch.status).toBe(200);
      expect(batch.body.data!.map((channel) => channel.key)).toEqual(
        keys.map((key) => `${key.slice(0, 4)}…${key.slice(-4)}`),
      );
      const events = await Promise.all(batch.body.data!.map((channel) => published(channel)));
      expect(events.map((event) => channelKeyBox.open(event.key_encrypted))).toEqual(keys);

      const unsupported = await client.call('/api/channel/', {
        method: 'POST',
        body: { mode: 'multi_to_single', channel: aChannel({ tag }) },
      });
      expect(unsupported.status).toBe(400);
      expect((await list(`search?keyword=${tag}`)).total).toBe(4);
    });

    it('pages by priority or by id, groups by tag in tag mode, counts types and searches', async () => {
      const tag = (name: string) => `${name}-${randomBytes(3).toString('hex')}`;
      const marker = `m${randomBytes(3).toString('hex')}`;
      const [shared, other] = [tag('shared'), tag('other')];
      const low = await create(aChannel({ name: `${marker} low`, priority: 1, tag: shared }));
      const high = await create(
        aChannel({ name: `${marker} high`, priority: 9, tag: '', models: 'glm-4.6', type: 26 }),
      );
      const mid = await create(
        aChannel({ name: `${marker} mid`, priority: 5, tag: shared, group: 'enterprise' }),
      );
      const last = await create(aChannel({ name: `${marker} last`, priority: 3, tag: other, status: 2 }));
      const search = (query: string) => list(`search?keyword=${marker}&${query}`);

      expect((await search('')).items.map((c) => c.id)).toEqual([high.id, mid.id, last.id, low.id]);
      expect((await search('id_sort=true')).items.map((c) => c.id)).toEqual([
        last.id,
        mid.id,
        high.id,
        low.id,
      ]);
      const secondPage = await search('p=2&page_size=3');
      expect(secondPage).toMatchObject({ page: 2, page_size: 3, total: 4 });
      expect(secondPage.items.map((c) => c.id)).toEqual([low.id]);

      const tagged = await search('tag_mode=true');
      expect(tagged.total).toBe(3);
      expect(tagged.items.map((c) => c.id)).toEqual([high.id, mid.id, low.id, last.id]);
      const firstEntries = await search('tag_mode=true&page_size=2');
      expect(firstEntries.items.map((c) => c.id)).toEqual([high.id, mid.id, low.id]);

      expect((await search('')).type_counts).toEqual({ '1': 3, '26': 1 });
      expect((await search('type=26')).items.map((c) => c.id)).toEqual([high.id]);
      expect((await search('type=26')).type_counts).toEqual({ '1': 3, '26': 1 });
      expect((await search('status=disabled')).items.map((c) => c.id)).toEqual([last.id]);
      expect((await search('status=enabled')).total).toBe(3);
      expect((await search('group=enterprise')).items.map((c) => c.id)).toEqual([mid.id]);
      expect((await search('model=GLM')).items.map((c) => c.id)).toEqual([high.id]);
      expect((await list(`search?keyword=${shared}`)).items.map((c) => c.id)).toEqual([mid.id, low.id]);
      expect((await list(`search?keyword=${high.id}`)).items.map((c) => c.id)).toContain(high.id);
      expect((await list(`search?keyword=${encodeURIComponent('%_')}`)).total).toBe(0);

      const all = await list('?page_size=1000');
      expect(all.total).toBeGreaterThanOrEqual(4);
      expect(all.page_size).toBe(1000);
      expect((await list()).page_size).toBe(10);
    });

    it('lets administrators in and nobody else', async () => {
      const channel = await create();
      const asUser = await client.call(`/api/channel/${channel.id}`, { role: Role.User });
      const anonymous = await client.call('/api/channel/', { role: null });
      const asRoot = await client.call(`/api/channel/${channel.id}`, { role: Role.Root });

      expect(asUser).toMatchObject({ status: 403, body: { success: false } });
      expect(anonymous).toMatchObject({ status: 401, body: { success: false } });
      expect(asRoot.status).toBe(200);
    });

    describe('refuses bad input with a 4xx envelope and no record', () => {
      let existing: ChannelView;
      let marker: string;
      beforeAll(async () => {
        marker = `v${randomBytes(4).toString('hex')}`;
        existing = await create(aChannel({ name: `${marker} kept` }));
      });
      const countWithMarker = async () => (await list(`search?keyword=${marker}`)).total;

      const cases: [string, Record<string, unknown>][] = [
        ['no name', { name: undefined }],
        ['an empty name', { name: '' }],
        ['a blank name', { name: '   ' }],
        ['a 101-character name', { name: 'n'.repeat(101) }],
        ['a name that is a number', { name: 42 }],
        ['control characters in the name', { name: 'bad\u0000name\u001b' }],
        ['a 1 MB name', { name: 'n'.repeat(1_000_000) }],
        ['no key', { key: undefined }],
        ['an empty key', { key: '  ' }],
        ['a key that is a number', { key: 12345 }],
        ['control characters in the key', { key: 'sk-\u0007bell' }],
        ['a 1 MB key', { key: 'k'.repeat(1_000_000) }],
        ['an unknown type', { type: 2 }],
        ['a type as text', { type: '1' }],
        ['no models', { models: '' }],
        ['SQL in the models', { models: "gpt-4o'; drop table channels; --" }],
        ['HTML in the models', { models: '<script>alert(1)</script>' }],
        ['a model mapping that is not JSON', { model_mapping: '{gpt-4o: gpt-4}' }],
        ['a model mapping that is an array', { model_mapping: '["gpt-4o"]' }],
        ['a model mapping to a number', { model_mapping: { 'gpt-4o': 4 } }],
        ['a base URL that is not http', { base_url: 'ftp://example.test' }],
        ['a base URL with markup', { base_url: 'https://x.test/"><script>' }],
        ['an Azure channel without base URL', { type: 3, base_url: '' }],
        ['HTML in the group', { group: '<b>vip</b>' }],
        ['SQL in the group', { group: "vip' or '1'='1" }],
        ['a fractional priority', { priority: 1.5 }],
        ['a priority as text', { priority: '5' }],
        ['a negative weight', { weight: -1 }],
        ['a negative max_concurrency', { max_concurrency: -1 }],
        ['status auto-disabled', { status: 3 }],
        ['auto_ban as text', { auto_ban: 'yes' }],
        ['HTML in the tag', { tag: '<img src=x onerror=alert(1)>' }],
        ['a test model with spaces', { test_model: 'gpt 4o' }],
        [
          'an Azure API version that is not one',
          { type: 3, base_url: 'https://az.example.test', other: 'latest' },
        ],
        ['control characters in other', { other: 'v\u0000' }],
        ['a 65-character other', { other: 'o'.repeat(65) }],
        ['other as a number', { other: 20241021 }],
      ];

      it.each(cases)('create with %s', async (_case, overrides) => {
        const body = aChannel({ name: `${marker} new`, ...overrides });
        const answer = await client.call('/api/channel/', { method: 'POST', body });

        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.body).toEqual({ success: false, message: expect.any(String) });
        expect(answer.body.message.length).toBeGreaterThan(0);
        expect(await countWithMarker()).toBe(1);
      });

      it.each(cases.filter(([, overrides]) => !Object.values(overrides).includes(undefined)))(
        'update with %s',
        async (_case, overrides) => {
          const answer = await client.call('/api/channel', {
            method: 'PUT',
            body: { id: existing.id, ...overrides },
          });

          if ((overrides as { key?: unknown }).key === '  ') {
            expect(answer.status).toBe(200);
          } else {
            expect(answer.status).toBeGreaterThanOrEqual(400);
            expect(answer.status).toBeLessThan(500);
            expect(answer.body.success).toBe(false);
          }
          expect(await read(existing.id)).toEqual(existing);
        },
      );

      it('refuses malformed bodies, ids and queries', async () => {
        const answers: Answer[] = await Promise.all([
          client.call('/api/channel/', { method: 'POST', body: '{"name":' }),
          client.call('/api/channel/', { method: 'POST', body: [aChannel()] }),
          client.call('/api/channel', { method: 'PUT', body: { name: 'no id' } }),
          client.call('/api/channel', { method: 'PUT', body: { id: 'abc' } }),
          client.call('/api/channel/abc'),
          client.call('/api/channel/-1'),
          client.call('/api/channel/?p=-1'),
          client.call('/api/channel/?page_size=100000'),
          client.call('/api/channel/?id_sort=maybe'),
          client.call('/api/channel/search?group=<b>'),
          client.call('/api/channel/test/abc'),
        ]);
        for (const answer of answers) {
          expect(answer.status).toBe(400);
          expect(answer.body.success).toBe(false);
        }
        const missing = await client.call('/api/channel', {
          method: 'PUT',
          body: { id: 2_000_000_000, name: 'x' },
        });
        expect(missing.status).toBe(404);
        expect(await countWithMarker()).toBe(1);
      });

      it('keeps SQL and markup in a name as plain text', async () => {
        const name = `${marker} '); drop table channels; -- <img src=x>`;
        const channel = await create(aChannel({ name }));
        expect((await read(channel.id)).name).toBe(name);
        await client.call(`/api/channel/${channel.id}`, { method: 'DELETE' });
      });
    });

    it('tests a channel through relay with a service token, records the time, and answers like new-api', async () => {
      const channel = await create(aChannel({ test_model: 'gpt-4o-mini' }));
      relay.outcomes.set(channel.name, { success: true, time_ms: 1234, message: '' });

      const passed = await client.call(`/api/channel/test/${channel.id}`);
      expect(passed.status).toBe(200);
      expect(channelTestAnswerSchema.parse(passed.body)).toEqual({
        success: true,
        message: '',
        time: 1.234,
        data: { model: 'gpt-4o-mini', time_ms: 1234 },
      });
      const [request] = relay.requestsFor(channel.id);
      expect(request).toEqual({ channel: await published(channel), model: 'gpt-4o-mini' });
      const afterTest = await read(channel.id);
      expect(afterTest.response_time).toBe(1234);
      expect(Math.abs(afterTest.test_time - Date.now() / 1000)).toBeLessThan(60);

      relay.outcomes.set(channel.name, {
        success: false,
        time_ms: 310,
        message: 'Incorrect API key provided',
      });
      const failed = await client.call(`/api/channel/test/${channel.id}?model=gpt-4o`);
      expect(failed.status).toBe(200);
      expect(failed.body).toEqual({
        success: false,
        message: 'Incorrect API key provided',
        time: 0.31,
        data: { model: 'gpt-4o', time_ms: 310 },
      });
      expect(relay.requestsFor(channel.id)[1]!.model).toBe('gpt-4o');
      expect((await read(channel.id)).response_time).toBe(310);

      expect((await client.call('/api/channel/test/2000000000')).status).toBe(404);
    });

    it('auto-disables an enabled auto_ban channel when relay reports it, once, and leaves others as they are', async () => {
      const channel = await create();
      const manual = await create(aChannel({ status: 2 }));
      const noAutoBan = await create(aChannel({ auto_ban: 0 }));

      const first = await autoDisable(channel.id, {
        reason: 'Incorrect API key provided\u0000',
        status_code: 401,
      });
      expect(first).toMatchObject({
        status: 200,
        body: { success: true, data: { id: channel.id, status: 3 } },
      });
      const disabled = await read(channel.id);
      expect(disabled).toMatchObject({ status: 3, status_reason: 'HTTP 401: Incorrect API key provided' });
      expect(disabled.status_time).toBeGreaterThan(0);
      await published(channel, (value) => value.status === ChannelStatus.AutoDisabled);

      const again = await autoDisable(channel.id, { reason: 'quota exhausted', status_code: 429 });
      expect(again.body.data).toEqual({ id: channel.id, status: 3 });
      expect(await read(channel.id)).toEqual(disabled);
      expect((await autoDisable(manual.id, { reason: 'x' })).body.data).toEqual({ id: manual.id, status: 2 });
      expect((await autoDisable(noAutoBan.id, { reason: 'x' })).body.data).toEqual({
        id: noAutoBan.id,
        status: 1,
      });
      expect((await autoDisable(2_000_000_000, { reason: 'x' })).status).toBe(404);
      expect((await autoDisable(channel.id, { reason: 'r'.repeat(501) })).status).toBe(400);
    });

    it("adds usage.recorded charges to the channel's used_quota once per event", async () => {
      const channel = await create();
      const userId = randomUserId();
      const usage = (
        quota: number,
        eventId: string = randomUUID(),
        channelId: number | null = channel.id,
      ) => ({
        topic: TOPICS.usageRecorded.name,
        key: String(userId),
        value: aUsageRecorded({ event_id: eventId, user_id: userId, channel_id: channelId, quota }),
      });
      const usedQuota = async () => (await read(channel.id)).used_quota;
      const first = usage(1200);

      await infra.runtime.bus.publish([first, usage(800), first, usage(5000, randomUUID(), null), usage(0)]);
      await eventually('the charges in used_quota', async () =>
        (await usedQuota()) === 2000 ? true : undefined,
      );
      await infra.runtime.bus.publish([first, usage(7)]);
      await eventually('the last charge in used_quota', async () =>
        (await usedQuota()) >= 2007 ? true : undefined,
      );

      expect(await usedQuota()).toBe(2007);
    });

    it('refuses the auto-disable call without a service token for its audience', async () => {
      const channel = await create();
      const path = servicePath(CHANNEL_AUTO_DISABLE_CALL, { id: channel.id });
      const answers = await Promise.all([
        client.call(path, { method: 'POST', body: { reason: 'x' }, role: Role.Root }),
        autoDisable(
          channel.id,
          { reason: 'x' },
          await new ServiceTokenSigner(secret, 'relay:channel-test').token(),
        ),
        autoDisable(
          channel.id,
          { reason: 'x' },
          await new ServiceTokenSigner(`${secret}0`, CHANNEL_AUTO_DISABLE_CALL.audience).token(),
        ),
      ]);
      for (const answer of answers) expect(answer).toMatchObject({ status: 401, body: { success: false } });
      expect((await read(channel.id)).status).toBe(ChannelStatus.Enabled);
    });

    it('fetches the models a channel’s upstream lists, through relay, and says why when it cannot', async () => {
      const listed = await create(aChannel({ models: 'gpt-4o' }));
      const unlisted = await create(aChannel({ name: 'no-list' }));

      const models = await client.call<string[]>(`/api/channel/fetch_models/${listed.id}`);
      const refused = await client.call(`/api/channel/fetch_models/${unlisted.id}`);
      const missing = await client.call('/api/channel/fetch_models/999999');
      const asUser = await client.call(`/api/channel/fetch_models/${listed.id}`, { role: Role.User });

      expect(models.body).toEqual({ success: true, message: '', data: ['gpt-4o', 'o3-mini'] });
      expect(refused).toMatchObject({
        status: 502,
        body: { success: false, message: 'The upstream answered 401' },
      });
      expect(missing.status).toBe(404);
      expect(asUser.status).toBe(403);
    });

    it("says a missing channel is missing in the caller's language", async () => {
      for (const [language, text] of [
        [undefined, 'Канал не найден'],
        ['en-US,en;q=0.9', 'Channel not found'],
      ] as const) {
        const options = language === undefined ? {} : { language };
        expect(await client.call('/api/channel/999999', options)).toMatchObject({
          status: 404,
          body: { success: false, message: text },
        });
        expect(await client.call('/api/channel/999999', { ...options, method: 'DELETE' })).toMatchObject({
          status: 404,
          body: { message: text },
        });
        expect(await client.call('/api/channel/test/999999', options)).toMatchObject({
          status: 404,
          body: { message: text },
        });
      }
    });
  });

  it('answers 502 when relay cannot be reached, recording nothing', async () => {
    const database = await infra.createDatabase();
    const lonely = await startAdmin(
      adminEnv(database.url, secret, masterKey, { RELAY_URL: 'http://127.0.0.1:9' }),
      infra.runtime,
    );
    try {
      await waitUntilReady(lonely.url);
      const lonelyClient = new AdminClient(lonely.url, secret);
      const created = await lonelyClient.call<ChannelView>('/api/channel/', {
        method: 'POST',
        body: aChannel(),
      });
      const answer = await lonelyClient.call(`/api/channel/test/${created.body.data!.id}`);

      expect(answer.status).toBe(502);
      expect(answer.body).toEqual({ success: false, message: expect.stringContaining('Relay') });
      expect(
        (await lonelyClient.call<ChannelView>(`/api/channel/${created.body.data!.id}`)).body.data,
      ).toMatchObject({
        response_time: 0,
        test_time: 0,
      });
    } finally {
      await lonely.close();
    }
  });

  it('re-enables auto-disabled channels that pass a periodic test through relay, and only those', async () => {
    const database = await infra.createDatabase();
    const watcher = await startAdmin(
      adminEnv(database.url, secret, masterKey, {
        RELAY_URL: relay.url,
        CHANNEL_AUTO_ENABLE_INTERVAL_SECONDS: '1',
      }),
      infra.runtime,
    );
    try {
      await waitUntilReady(watcher.url);
      const watched = new AdminClient(watcher.url, secret);
      const make = async () =>
        (await watched.call<ChannelView>('/api/channel/', { method: 'POST', body: aChannel() })).body.data!;
      const [recovers, stillBroken, manual] = [await make(), await make(), await make()];
      relay.outcomes.set(stillBroken.name, { success: false, time_ms: 40, message: 'Invalid API key' });
      relay.outcomes.set(recovers.name, { success: false, time_ms: 40, message: 'Invalid API key' });
      const disable = async (id: number) =>
        watched.call(servicePath(CHANNEL_AUTO_DISABLE_CALL, { id }), {
          method: 'POST',
          body: { reason: 'invalid key' },
          role: null,
          serviceToken: await new ServiceTokenSigner(secret, CHANNEL_AUTO_DISABLE_CALL.audience).token(),
        });
      await disable(recovers.id);
      await disable(stillBroken.id);
      await watched.call('/api/channel', { method: 'PUT', body: { id: manual.id, status: 2 } });

      await eventually('a failed periodic test of the broken channel', async () =>
        relay.requestsFor(recovers.id).length > 0 ? true : undefined,
      );
      relay.outcomes.delete(recovers.name);

      const enabled = await eventually('the recovered channel enabled again', async () => {
        const channel = (await watched.call<ChannelView>(`/api/channel/${recovers.id}`)).body.data!;
        return channel.status === ChannelStatus.Enabled ? channel : undefined;
      });
      expect(enabled).toMatchObject({ status_reason: '', response_time: 25 });
      await eventually('the re-enabled channel on catalog.channel', async () => {
        const statuses = channelEvents
          .values<CatalogChannel>((value) => value.id === recovers.id && value.name === recovers.name)
          .map((value) => value.status);
        return statuses.join() === '1,3,1' ? true : undefined;
      });
      await eventually('another round', async () =>
        relay.requestsFor(stillBroken.id).length >= 3 ? true : undefined,
      );
      expect((await watched.call<ChannelView>(`/api/channel/${stillBroken.id}`)).body.data!.status).toBe(3);
      expect((await watched.call<ChannelView>(`/api/channel/${manual.id}`)).body.data!.status).toBe(2);
      expect(relay.requestsFor(manual.id)).toHaveLength(0);
    } finally {
      await watcher.close();
    }
  });
});
