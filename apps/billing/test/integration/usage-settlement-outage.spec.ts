import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Role, TOPICS, type BillingBalance, type UsageRecorded } from '@tollgate/contracts';
import { deadLetterTopic, partitionForKey, retryTimeBeforeDeadLetterMs } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  TcpProxy,
  TOPIC_PARTITIONS,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

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

function aUsageEvent(userId: number, quota: number): UsageRecorded {
  const eventId = randomUUID();
  return {
    v: 1,
    event_id: eventId,
    request_id: `req-${eventId}`,
    user_id: userId,
    token_id: 7,
    token_name: 'ci',
    channel_id: 3,
    group: 'default',
    model: 'gpt-4o-mini',
    upstream_model: 'gpt-4o-mini-2024-07-18',
    prompt_tokens: 1200,
    completion_tokens: 300,
    cached_tokens: 200,
    quota,
    price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
    latency_ms: 850,
    ttft_ms: 120,
    is_stream: false,
    status: 'success',
    created_at: Math.floor(Date.now() / 1000),
  };
}

/** A user whose events land on another partition than `userId`'s, so two partitions wait out the outage. */
function userOnOtherPartition(userId: number): number {
  const partition = partitionForKey(String(userId), TOPIC_PARTITIONS);
  let candidate = userId + 1;
  while (partitionForKey(String(candidate), TOPIC_PARTITIONS) === partition) candidate += 1;
  return candidate;
}

// The fault is billing's PostgreSQL going away under a running service: on embedded infrastructure
// there is no server connection to cut (PGlite runs in the test process).
const onRealInfrastructure = INFRASTRUCTURES.includes('real') ? describe : describe.skip;

onRealInfrastructure('billing usage settlement across a database outage (real infrastructure)', () => {
  let infra: TestInfrastructureWithDatabase;
  let database: TestDatabase;
  let proxy: TcpProxy;
  let billing: RunningService;
  let balances: TopicRecorder;
  let deadLetters: TopicRecorder;
  const secret = randomBytes(32).toString('hex');

  const publish = (events: readonly UsageRecorded[]) =>
    infra.runtime.bus.publish(
      events.map((value) => ({ topic: USAGE_RECORDED, key: String(value.user_id), value })),
    );
  const balanceAfter = (userId: number, requests: number) =>
    eventually(`billing.balance of user ${userId} after ${requests} request(s)`, async () =>
      balances.values<BillingBalance>((b) => b.user_id === userId && b.request_count >= requests).at(0),
    );

  beforeAll(async () => {
    infra = await openInfrastructure('real', 'billing-outage-it');
    await infra.runtime.bus.ensureTopics([
      TOPICS.usageRecorded,
      TOPICS.billingBalance,
      { name: deadLetterTopic(USAGE_RECORDED) },
    ]);
    balances = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingBalance.name,
      `billing-outage-it.balances.${infra.runId}`,
    );
    deadLetters = await TopicRecorder.start(
      infra.runtime.bus,
      deadLetterTopic(USAGE_RECORDED),
      `billing-outage-it.dlq.${infra.runId}`,
    );
    database = await infra.createDatabase();
    proxy = await TcpProxy.forUrl(database.url);
    billing = await startBilling(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'fatal',
        DATABASE_URL: proxy.via(database.url),
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
      },
      infra.runtime,
    );
    await waitUntilReady(billing.url);
  });

  afterAll(async () => {
    await billing?.close();
    await proxy?.close();
    await balances?.stop();
    await deadLetters?.stop();
    await infra?.close();
  });

  it('charges every usage event published while its database was away once it is back, exactly once, dead-lettering none', async () => {
    const first = randomUserId();
    const second = userOnOtherPartition(first);
    // Settled before the outage: the consumer is running and has its partitions.
    await publish([aUsageEvent(first, 1)]);
    await balanceAfter(first, 1);

    proxy.cut();
    const duringOutage = [
      aUsageEvent(first, 100),
      aUsageEvent(second, 250),
      aUsageEvent(first, 30),
      aUsageEvent(second, 7),
    ];
    await publish(duringOutage);
    await sleep(OUTAGE_MS);
    // Billing did try its database while it was away.
    expect(proxy.refused).toBeGreaterThan(0);
    // Anything the bus gave up on went to the dead-letter topic during the outage.
    expect(deadLetters.records.map((record) => record.key)).toEqual([]);
    proxy.restore();

    await balanceAfter(first, 3);
    await balanceAfter(second, 2);

    const settled = await withDatabase(database, async (query) => {
      const state = async (userId: number) => {
        const [account] = await query<Record<string, string>>(
          'select quota, used_quota, request_count from accounts where user_id = ?',
          [userId],
        );
        const [logs] = await query<{ n: string }>('select count(*) as n from usage_logs where user_id = ?', [
          userId,
        ]);
        const [entries] = await query<{ n: string }>(
          `select count(*) as n from ledger_entries where user_id = ? and kind = 'usage'`,
          [userId],
        );
        return {
          quota: Number(account!['quota']),
          used_quota: Number(account!['used_quota']),
          request_count: Number(account!['request_count']),
          usage_logs: Number(logs!.n),
          ledger_entries: Number(entries!.n),
        };
      };
      return { first: await state(first), second: await state(second) };
    });
    expect(settled).toEqual({
      first: { quota: -131, used_quota: 131, request_count: 3, usage_logs: 3, ledger_entries: 3 },
      second: { quota: -257, used_quota: 257, request_count: 2, usage_logs: 2, ledger_entries: 2 },
    });
    expect(deadLetters.records.map((record) => record.key)).toEqual([]);
    const audit = await getJson(`${billing.url}/api/log/ledger-audit`, {
      [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
        { userId: randomUserId(), role: Role.Admin, via: 'session' },
        secret,
      ),
    });
    expect(audit).toEqual({ status: 200, body: { success: true, message: '', data: [] } });
  });
});
