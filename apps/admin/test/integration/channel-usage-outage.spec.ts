import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TOPICS, type ChannelView, type UsageRecorded } from '@tollgate/contracts';
import { deadLetterTopic, retryTimeBeforeDeadLetterMs } from '@tollgate/events';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  TcpProxy,
  TopicRecorder,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { AdminClient, adminEnv } from './admin-client';

jest.setTimeout(60_000);

const USAGE_RECORDED = TOPICS.usageRecorded.name;
/**
 * How long the bus retries a failing batch before it dead-letters its records: retries after
 * 200, 400, 800 and 1600 ms (SubscribeOptions' defaults: 5 attempts, 200 ms doubled). The outage
 * lasts this long and a little more, so that a consumer that did not wait out the outage (its
 * `isTransient`, or BusConsumer's rule for the infrastructure being away) would have its events on
 * the dead-letter topic before the database is back.
 */
const DEAD_LETTERED_AFTER_MS = retryTimeBeforeDeadLetterMs();
const OUTAGE_MS = DEAD_LETTERED_AFTER_MS + 2_000;

const aUsageRecorded = (userId: number, channelId: number, quota: number): UsageRecorded => ({
  v: 1,
  event_id: randomUUID(),
  request_id: `req-${randomBytes(6).toString('hex')}`,
  user_id: userId,
  token_id: null,
  token_name: '',
  channel_id: channelId,
  group: 'default',
  model: 'gpt-4o-mini',
  upstream_model: 'gpt-4o-mini',
  prompt_tokens: 10,
  completion_tokens: 5,
  cached_tokens: 0,
  quota,
  price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
  latency_ms: 120,
  ttft_ms: null,
  is_stream: false,
  status: 'success',
  created_at: Math.floor(Date.now() / 1000),
});

// The fault is admin's PostgreSQL going away under a running service: on embedded infrastructure
// there is no server connection to cut (PGlite runs in the test process).
const onRealInfrastructure = INFRASTRUCTURES.includes('real') ? describe : describe.skip;

onRealInfrastructure("channels' used quota across a database outage (real infrastructure)", () => {
  const secret = randomBytes(32).toString('hex');
  let infra: TestInfrastructureWithDatabase;
  let proxy: TcpProxy;
  let admin: RunningService;
  let client: AdminClient;
  let deadLetters: TopicRecorder;

  const usedQuota = (id: number, quota: number) =>
    eventually(`used_quota ${quota} on channel ${id}`, async () => {
      const read = (await client.call<ChannelView>(`/api/channel/${id}`)).body.data;
      return read?.used_quota === quota ? read : undefined;
    });
  const publish = (events: UsageRecorded[]) =>
    infra.runtime.bus.publish(
      events.map((value) => ({ topic: USAGE_RECORDED, key: String(value.user_id), value })),
    );

  beforeAll(async () => {
    infra = await openInfrastructure('real', 'admin-outage-it');
    await infra.runtime.bus.ensureTopics([
      TOPICS.catalogChannel,
      TOPICS.catalogOption,
      TOPICS.usageRecorded,
      { name: deadLetterTopic(USAGE_RECORDED) },
    ]);
    deadLetters = await TopicRecorder.start(
      infra.runtime.bus,
      deadLetterTopic(USAGE_RECORDED),
      `admin-outage-it.dlq.${infra.runId}`,
    );
    const database = await infra.createDatabase();
    proxy = await TcpProxy.forUrl(database.url);
    admin = await startAdmin(
      adminEnv(proxy.via(database.url), secret, randomBytes(32), { LOG_LEVEL: 'fatal' }),
      infra.runtime,
    );
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  });

  afterAll(async () => {
    await admin?.close();
    await proxy?.close();
    await deadLetters?.stop();
    await infra?.close();
  });

  it("adds every charge published while its database was away to the channel's used_quota once it is back, exactly once, dead-lettering none", async () => {
    const created = await client.call<ChannelView>('/api/channel/', {
      method: 'POST',
      body: {
        type: 1,
        name: `openai ${randomBytes(4).toString('hex')}`,
        key: `sk-outage-${randomBytes(16).toString('hex')}`,
        base_url: 'https://upstream.example.test/',
        models: 'gpt-4o-mini',
        group: 'default',
      },
    });
    expect(created.status).toBe(200);
    const channel = created.body.data!;
    const userId = randomUserId();
    // Counted before the outage: the consumer is running and has its partitions.
    await publish([aUsageRecorded(userId, channel.id, 1)]);
    await usedQuota(channel.id, 1);

    proxy.cut();
    await publish([
      aUsageRecorded(userId, channel.id, 1200),
      aUsageRecorded(randomUserId(), channel.id, 800),
      aUsageRecorded(randomUserId(), channel.id, 7),
    ]);
    await sleep(OUTAGE_MS);
    // Admin did try its database while it was away.
    expect(proxy.refused).toBeGreaterThan(0);
    // Anything the bus gave up on went to the dead-letter topic during the outage.
    expect(deadLetters.records.map((record) => record.key)).toEqual([]);
    proxy.restore();

    expect((await usedQuota(channel.id, 2008)).used_quota).toBe(2008);
    expect(deadLetters.records.map((record) => record.key)).toEqual([]);
  });
});
