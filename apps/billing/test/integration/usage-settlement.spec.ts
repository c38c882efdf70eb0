import {
  ACCOUNT_SET_QUOTA_CALL,
  GENERATION_CALL,
  KEY_USAGE_CALL,
  Role,
  servicePath,
  TOPICS,
  type LogItem,
  type Page,
  type ServiceCall,
  type UsageRecorded,
} from '@tollgate/contracts';
import { deadLetterTopic, type EventBus } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import { METRICS } from '@tollgate/platform';
import type { ServiceRuntime } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  randomUserId,
  TOPIC_PARTITIONS,
  type JsonResponse,
} from '@tollgate/testing';
import { USAGE_GROUP } from '../../src/usage/usage-recorded.consumer';
import { BillingHarness, settledState, unbalancedUsage, type Billing, type Settled } from './billing-harness';
import { aUsageEvent, userOnOtherPartition, userOnSamePartition } from './builders';

jest.setTimeout(90_000);

const USAGE_RECORDED = TOPICS.usageRecorded.name;

/**
 * The bus billing gets in place of `bus`: the usage group's handler runs (and commits) and then
 * throws, as if the process died before the offset commit. `first` resolves at the first crash.
 */
function crashingAfterCommit(bus: EventBus): { bus: EventBus; first: Promise<void> } {
  let crashed!: () => void;
  const first = new Promise<void>((resolve) => (crashed = resolve));
  const crashing: EventBus = {
    ensureTopics: (topics) => bus.ensureTopics(topics),
    publish: (events) => bus.publish(events),
    table: (topic, decode) => bus.table(topic, decode),
    close: () => bus.close(),
    subscribe: (options) =>
      bus.subscribe(
        options.groupId !== USAGE_GROUP
          ? options
          : {
              ...options,
              handler: async (batch) => {
                await options.handler(batch);
                crashed();
                throw new Error('crashed after the database commit, before the offset commit');
              },
            },
      ),
  };
  return { bus: crashing, first };
}

describe.each(INFRASTRUCTURES)('billing usage settlement on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-usage-it', {
    record: [TOPICS.billingBalance, { name: deadLetterTopic(USAGE_RECORDED) }],
    topics: [TOPICS.usageRecorded],
    env: () => ({ CONSUMER_LAG_INTERVAL_SECONDS: '1' }),
  });
  const deadLetters = () => harness.recorder(deadLetterTopic(USAGE_RECORDED));

  /**
   * Runs billing while `whileRunning` acts; the ledger audit it answers last is returned. Every
   * user's usage-log rows then have their account, and their quota is what its usage entries charged.
   */
  const runBilling = async (
    database: TestDatabase,
    whileRunning: (billing: Billing) => Promise<void>,
    runtime?: ServiceRuntime,
  ): Promise<JsonResponse> => {
    const audit = await harness.run(
      database,
      async (billing) => {
        await whileRunning(billing);
        return billing.ledgerAudit();
      },
      { runtime },
    );
    expect(await unbalancedUsage(database)).toEqual([]);
    return audit;
  };

  const publish = (events: readonly UsageRecorded[]) => harness.publishUsage(events);
  const balanceAfter = (userId: number, requests: number) => harness.balanceAfter(userId, requests);

  const charged = (quotas: readonly number[]): Settled => {
    const total = quotas.reduce((sum, q) => sum + q, 0);
    return {
      quota: -total,
      used_quota: total,
      request_count: quotas.length,
      usage_logs: quotas.length,
      ledger_charged: total,
    };
  };

  const sum = (quotas: readonly number[]) => quotas.reduce((total, q) => total + q, 0);

  const auditIsClean: JsonResponse = { status: 200, body: { success: true, message: '', data: [] } };

  beforeAll(() => harness.open());
  afterAll(() => harness.close());

  it('charges a usage event delivered three times once, opening the account of a user it has not seen', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const repeated = aUsageEvent(userId, { quota: 1_000 });
    const behind = aUsageEvent(userId, { quota: 7 });

    const audit = await runBilling(database, async () => {
      for (let delivery = 0; delivery < 3; delivery += 1) await publish([repeated]);
      await publish([behind]);
      await balanceAfter(userId, 2);
    });

    expect(await settledState(database, userId)).toEqual(charged([1_000, 7]));
    expect(audit).toEqual(auditIsClean);
  });

  it("answers relay's questions for API clients: a key's spending, and one call by its answer id, to its owner only", async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const first = aUsageEvent(userId, { quota: 1_000, response_id: 'chatcmpl-abc', finish_reason: 'stop' });
    const second = aUsageEvent(userId, { quota: 500 });
    const otherKey = aUsageEvent(userId, { quota: 9, token_id: 8 });
    await runBilling(database, async (billing) => {
      await publish([first, second, otherKey]);
      await balanceAfter(userId, 3);
      const ask = (call: ServiceCall, path: string) => billing.asService(call).get(path);
      const spent = await ask(KEY_USAGE_CALL, servicePath(KEY_USAGE_CALL, { tokenId: 7 }));
      expect(spent.body).toMatchObject({
        data: { today_quota: 1_500, today_requests: 2, month_quota: 1_500, month_requests: 2 },
      });
      const byAnswer = await ask(
        GENERATION_CALL,
        `${servicePath(GENERATION_CALL, { userId, id: 'chatcmpl-abc' })}?token_id=7`,
      );
      expect(byAnswer.body).toMatchObject({
        data: {
          id: 'chatcmpl-abc',
          request_id: first.request_id,
          quota: 1_000,
          prompt_tokens: 1200,
          finish_reason: 'stop',
          is_stream: true,
        },
      });
      // By the request id too; never another user's or another key's call; never without a service token
      // for this very call (a token for the other call is refused like none).
      const byRequest = await ask(
        GENERATION_CALL,
        servicePath(GENERATION_CALL, { userId, id: second.request_id }),
      );
      expect(byRequest.body).toMatchObject({ data: { id: second.request_id, finish_reason: null } });
      const stranger = servicePath(GENERATION_CALL, { userId: userId + 1, id: 'chatcmpl-abc' });
      expect((await ask(GENERATION_CALL, stranger)).status).toBe(404);
      const wrongKey = servicePath(GENERATION_CALL, { userId, id: otherKey.request_id });
      expect((await ask(GENERATION_CALL, `${wrongKey}?token_id=7`)).status).toBe(404);
      expect(
        (await ask(KEY_USAGE_CALL, servicePath(GENERATION_CALL, { userId, id: 'chatcmpl-abc' }))).status,
      ).toBe(401);
      expect((await billing.anonymous().get(servicePath(KEY_USAGE_CALL, { tokenId: 7 }))).status).toBe(401);
    });
  });

  it("logs a call's prompt-cache writes for 5 minutes and for an hour apart, in the log, its export and the generation, once however often the event comes", async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    // 3 000 prompt tokens: 200 read from the cache, 2 000 written to it (1 500 of them for an hour).
    const wrote = aUsageEvent(userId, {
      model: 'claude-sonnet-4-5',
      prompt_tokens: 3_000,
      cached_tokens: 200,
      cache_write_tokens: 2_000,
      cache_write_1h_tokens: 1_500,
      quota: 6_000,
      response_id: 'msg_wrote',
    });
    const wroteNone = aUsageEvent(userId, { quota: 40 });

    const audit = await runBilling(database, async (billing) => {
      for (let delivery = 0; delivery < 3; delivery += 1) await publish([wrote]);
      await publish([wroteNone]);
      await balanceAfter(userId, 2);

      const page = await billing.as(userId, Role.User).get<{ data: Page<LogItem> }>('/api/log/self');
      const lines = page.body.data.items.map((line) => [
        line.request_id,
        line.cached_tokens,
        line.cache_write_5m_tokens,
        line.cache_write_1h_tokens,
      ]);
      expect(lines).toEqual([
        [wroteNone.request_id, 200, 0, 0],
        [wrote.request_id, 200, 500, 1_500],
      ]);

      const exported = await billing
        .as(userId, Role.User)
        .fetch('/api/log/self/export?currency=USD', { headers: { 'accept-language': 'en' } });
      const csv = (await exported.text())
        .replace(/^\ufeff/, '')
        .trimEnd()
        .split('\r\n');
      expect(csv[0]).toContain(
        ',Cached tokens,"Cache write tokens, 5 min","Cache write tokens, 1 h","Response time, s",',
      );
      expect(csv.slice(1).map((row) => row.split(',').slice(6, 11))).toEqual([
        ['1200', '300', '200', '0', '0'],
        ['3000', '300', '200', '500', '1500'],
      ]);

      const generation = await billing
        .asService(GENERATION_CALL)
        .get(servicePath(GENERATION_CALL, { userId, id: 'msg_wrote' }));
      expect(generation.body).toMatchObject({
        data: {
          prompt_tokens: 3_000,
          cached_tokens: 200,
          cache_write_5m_tokens: 500,
          cache_write_1h_tokens: 1_500,
        },
      });
    });

    expect(await settledState(database, userId)).toEqual(charged([6_000, 40]));
    expect(audit).toEqual(auditIsClean);
  });

  it('settles a batch with events of two users, and dead-letters only the malformed record in it', async () => {
    const database = await harness.createDatabase();
    const first = randomUserId();
    const second = userOnSamePartition(first);
    const malformedKey = `not-a-usage-${harness.infra.runId}`;

    const audit = await runBilling(database, async () => {
      await harness.bus.publish([
        { topic: USAGE_RECORDED, key: String(first), value: aUsageEvent(first, { quota: 100 }) },
        { topic: USAGE_RECORDED, key: String(second), value: aUsageEvent(second, { quota: 250 }) },
        { topic: USAGE_RECORDED, key: malformedKey, value: { v: 1, event_id: 'nope' } },
        { topic: USAGE_RECORDED, key: String(first), value: aUsageEvent(first, { quota: 30 }) },
      ]);
      await balanceAfter(first, 2);
      await balanceAfter(second, 1);
      await eventually('the malformed usage event on usage.recorded.dlq', async () =>
        deadLetters().records.find((record) => record.key === malformedKey),
      );
    });

    expect(await settledState(database, first)).toEqual(charged([100, 30]));
    expect(await settledState(database, second)).toEqual(charged([250]));
    expect(audit).toEqual(auditIsClean);
  });

  it('charges once after a crash between the database commit and the offset commit', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const event = aUsageEvent(userId, { quota: 5_000 });
    const crashes = crashingAfterCommit(harness.bus);

    // Every handler call commits its transaction and then fails, so the offset is never committed.
    await runBilling(
      database,
      async () => {
        await publish([event]);
        await crashes.first;
        await balanceAfter(userId, 1);
      },
      { ...harness.infra.runtime, bus: crashes.bus },
    );
    const after = aUsageEvent(userId, { quota: 1 });
    await publish([after]);
    // Restarted without the fault: the bus delivers the settled event again, then the next one.
    const audit = await runBilling(database, async () => {
      await balanceAfter(userId, 2);
    });

    expect(deadLetters().records.filter((record) => record.key === String(userId))).toEqual([]);
    expect(await settledState(database, userId)).toEqual(charged([5_000, 1]));
    expect(audit).toEqual(auditIsClean);
  });

  it('settles events of many users on every partition published together, each balance by its own events', async () => {
    const database = await harness.createDatabase();
    // Ascending ids, two sharing a partition, the others stepping from partition to partition.
    const first = randomUserId();
    const users = [first, userOnSamePartition(first)];
    while (users.length < 12) users.push(userOnOtherPartition(users.at(-1)!));
    const quotas = (user: number) => [1 + (user % 97), 200 + (user % 13), 3_000];

    const audit = await runBilling(database, async () => {
      await publish(users.flatMap((user) => quotas(user).map((quota) => aUsageEvent(user, { quota }))));
      for (const user of users) await balanceAfter(user, 3);
    });

    for (const user of users) expect(await settledState(database, user)).toEqual(charged(quotas(user)));
    for (const user of users) {
      expect(harness.balancesOf(user).at(-1)).toMatchObject({
        quota: -sum(quotas(user)),
        used_quota: sum(quotas(user)),
        request_count: 3,
      });
    }
    expect(audit).toEqual(auditIsClean);
  });

  it('charges only the new events of a batch that repeats one settled before', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const other = userOnSamePartition(userId);
    const settledBefore = aUsageEvent(userId, { quota: 400 });
    const fresh = [aUsageEvent(userId, { quota: 30 }), aUsageEvent(other, { quota: 5 })];

    const audit = await runBilling(database, async () => {
      await publish([settledBefore]);
      await balanceAfter(userId, 1);
      // One publication, one partition: the repeated event and the new ones travel together.
      await publish([
        fresh[0]!,
        { ...settledBefore, event_id: settledBefore.event_id.toUpperCase() },
        fresh[1]!,
      ]);
      await balanceAfter(userId, 2);
      await balanceAfter(other, 1);
    });

    expect(await settledState(database, userId)).toEqual(charged([400, 30]));
    expect(await settledState(database, other)).toEqual(charged([5]));
    expect(audit).toEqual(auditIsClean);
  });

  it('charges every served call in full, taking a balance below zero rather than dropping a charge', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const calls = [aUsageEvent(userId, { quota: 80 }), aUsageEvent(userId, { quota: 80 })];

    await runBilling(database, async (billing) => {
      const setQuota = await billing
        .asService(ACCOUNT_SET_QUOTA_CALL)
        .send(ACCOUNT_SET_QUOTA_CALL.method, servicePath(ACCOUNT_SET_QUOTA_CALL, { userId }), {
          quota: 100,
          idempotency_key: `floor-${userId}`,
          actor_id: 1,
          reason: 'spec',
        });
      expect(setQuota.status).toBe(200);
      await publish(calls);
      // Relay reserved each call before serving it; billing's part is to charge what was served,
      // so the balance ends one call's cost below zero, never clamped at zero.
      expect(await balanceAfter(userId, 2)).toMatchObject({ quota: -60, used_quota: 160 });
    });

    expect(await settledState(database, userId)).toEqual({ ...charged([80, 80]), quota: 100 - 160 });
  });

  it('settles 50 events of one user published concurrently exactly', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const quotas = Array.from({ length: 50 }, (_, i) => 1_000 + i);

    const audit = await runBilling(database, async () => {
      await Promise.all(quotas.map((quota) => publish([aUsageEvent(userId, { quota })])));
      await balanceAfter(userId, quotas.length);
    });

    expect(await settledState(database, userId)).toEqual(charged(quotas));
    expect(audit).toEqual(auditIsClean);
  });

  it("exports the usage group's lag per partition, down to 0 once it has settled", async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    await harness.run(database, async (billing) => {
      await publish([aUsageEvent(userId, { quota: 10 })]);
      await balanceAfter(userId, 1);
      const lagOf = (metrics: string, partition: number) =>
        new RegExp(
          `^${METRICS.consumerLag.name}\\{(?=[^}]*topic="${USAGE_RECORDED}")(?=[^}]*group="${USAGE_GROUP}")` +
            `(?=[^}]*partition="${partition}")[^}]*\\} (\\d+)$`,
          'm',
        ).exec(metrics)?.[1];
      const lags = await eventually('every partition of usage.recorded at lag 0 in /metrics', async () => {
        const metrics = await (await fetch(`${billing.url}/metrics`)).text();
        const values = Array.from({ length: TOPIC_PARTITIONS }, (_, partition) => lagOf(metrics, partition));
        return values.every((value) => value === '0') ? values : undefined;
      });
      expect(lags).toEqual(Array.from({ length: TOPIC_PARTITIONS }, () => '0'));
    });
  });
});
