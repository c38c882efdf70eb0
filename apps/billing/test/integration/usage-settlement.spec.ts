import { randomBytes, randomUUID } from 'node:crypto';
import {
  GENERATION_CALL,
  KEY_USAGE_CALL,
  Role,
  servicePath,
  TOPICS,
  type BillingBalance,
  type ServiceCall,
  type UsageRecorded,
} from '@tollgate/contracts';
import { deadLetterTopic, partitionForKey, type EventBus } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import {
  INTERNAL_IDENTITY_HEADER,
  METRICS,
  SERVICE_TOKEN_HEADER,
  ServiceTokenSigner,
  signInternalToken,
} from '@tollgate/platform';
import type { Env, ServiceRuntime } from '@tollgate/runtime';
import {
  eventually,
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  TOPIC_PARTITIONS,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type JsonResponse,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';
import { USAGE_GROUP } from '../../src/usage/usage-recorded.consumer';

jest.setTimeout(90_000);

const USAGE_RECORDED = TOPICS.usageRecorded.name;

function aUsageEvent(userId: number, quota: number, eventId: string = randomUUID()): UsageRecorded {
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
    is_stream: true,
    status: 'success',
    created_at: Math.floor(Date.now() / 1000),
  };
}

/** The next user id whose events land on the same partition as `userId`'s, so both share batches. */
function userOnSamePartition(userId: number): number {
  const partition = partitionForKey(String(userId), TOPIC_PARTITIONS);
  let candidate = userId + 1;
  while (partitionForKey(String(candidate), TOPIC_PARTITIONS) !== partition) candidate += 1;
  return candidate;
}

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

interface Settled {
  quota: number;
  used_quota: number;
  request_count: number;
  usage_logs: number;
  ledger_entries: number;
}

describe.each(INFRASTRUCTURES)('billing usage settlement on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let balances: TopicRecorder;
  let deadLetters: TopicRecorder;
  const secret = randomBytes(32).toString('hex');
  /** The running billing's address, while runBilling runs. */
  let billingUrl: string | undefined;

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
    CONSUMER_LAG_INTERVAL_SECONDS: '1',
  });

  const adminHeaders = async () => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
      { userId: randomUserId(), role: Role.Admin, via: 'session' },
      secret,
    ),
  });

  /** Runs billing while `whileRunning` acts; the ledger audit it answers last is returned. */
  const runBilling = async (
    database: TestDatabase,
    whileRunning: () => Promise<void>,
    runtime: ServiceRuntime = infra.runtime,
  ): Promise<JsonResponse> => {
    const billing = await startBilling(billingEnv(database), runtime);
    billingUrl = billing.url;
    try {
      await waitUntilReady(billing.url);
      await whileRunning();
      return await getJson(`${billing.url}/api/log/ledger-audit`, await adminHeaders());
    } finally {
      await billing.close();
    }
  };

  const publish = (events: readonly UsageRecorded[]) =>
    infra.runtime.bus.publish(
      events.map((value) => ({ topic: USAGE_RECORDED, key: String(value.user_id), value })),
    );

  /** Waits for the billing.balance that shows `requests` settled requests of `userId`. */
  const balanceAfter = (userId: number, requests: number) =>
    eventually(`billing.balance of user ${userId} after ${requests} request(s)`, async () =>
      balances.values<BillingBalance>((b) => b.user_id === userId && b.request_count >= requests).at(0),
    );

  /** Read while billing is stopped: on PGlite the running service holds the one connection. */
  const settledState = (database: TestDatabase, userId: number): Promise<Settled> =>
    withDatabase(database, async (query) => {
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
    });

  const charged = (quotas: readonly number[]): Settled => {
    const total = quotas.reduce((sum, q) => sum + q, 0);
    return {
      quota: -total,
      used_quota: total,
      request_count: quotas.length,
      usage_logs: quotas.length,
      ledger_entries: quotas.length,
    };
  };

  const auditIsClean: JsonResponse = { status: 200, body: { success: true, message: '', data: [] } };

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-usage-it');
    await infra.runtime.bus.ensureTopics([
      TOPICS.usageRecorded,
      TOPICS.billingBalance,
      { name: deadLetterTopic(USAGE_RECORDED) },
    ]);
    balances = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingBalance.name,
      `billing-usage-it.balances.${infra.runId}`,
    );
    deadLetters = await TopicRecorder.start(
      infra.runtime.bus,
      deadLetterTopic(USAGE_RECORDED),
      `billing-usage-it.dlq.${infra.runId}`,
    );
  });

  afterAll(async () => {
    await balances?.stop();
    await deadLetters?.stop();
    await infra?.close();
  });

  it('charges a usage event delivered three times once, opening the account of a user it has not seen', async () => {
    const database = await infra.createDatabase();
    const userId = randomUserId();
    const repeated = aUsageEvent(userId, 1_000);
    const behind = aUsageEvent(userId, 7);

    const audit = await runBilling(database, async () => {
      for (let delivery = 0; delivery < 3; delivery += 1) await publish([repeated]);
      await publish([behind]);
      await balanceAfter(userId, 2);
    });

    expect(await settledState(database, userId)).toEqual(charged([1_000, 7]));
    expect(audit).toEqual(auditIsClean);
  });

  it("answers relay's questions for API clients: a key's spending, and one call by its answer id, to its owner only", async () => {
    const database = await infra.createDatabase();
    const userId = randomUserId();
    const first = { ...aUsageEvent(userId, 1_000), response_id: 'chatcmpl-abc', finish_reason: 'stop' };
    const second = aUsageEvent(userId, 500);
    const otherKey = { ...aUsageEvent(userId, 9), token_id: 8 };
    const ask = async (call: ServiceCall, path: string) => {
      const signer = new ServiceTokenSigner(secret, call.audience);
      return getJson(path, { [SERVICE_TOKEN_HEADER]: await signer.token() });
    };
    await runBilling(database, async () => {
      await publish([first, second, otherKey]);
      await balanceAfter(userId, 3);
      const url = billingUrl!;
      const spent = await ask(KEY_USAGE_CALL, `${url}${servicePath(KEY_USAGE_CALL, { tokenId: 7 })}`);
      expect(spent.body).toMatchObject({
        data: { today_quota: 1_500, today_requests: 2, month_quota: 1_500, month_requests: 2 },
      });
      const byAnswer = await ask(
        GENERATION_CALL,
        `${url}${servicePath(GENERATION_CALL, { userId, id: 'chatcmpl-abc' })}?token_id=7`,
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
        `${url}${servicePath(GENERATION_CALL, { userId, id: second.request_id })}`,
      );
      expect(byRequest.body).toMatchObject({ data: { id: second.request_id, finish_reason: null } });
      const stranger = servicePath(GENERATION_CALL, { userId: userId + 1, id: 'chatcmpl-abc' });
      expect((await ask(GENERATION_CALL, `${url}${stranger}`)).status).toBe(404);
      const wrongKey = servicePath(GENERATION_CALL, { userId, id: otherKey.request_id });
      expect((await ask(GENERATION_CALL, `${url}${wrongKey}?token_id=7`)).status).toBe(404);
      expect(
        (await ask(KEY_USAGE_CALL, `${url}${servicePath(GENERATION_CALL, { userId, id: 'chatcmpl-abc' })}`))
          .status,
      ).toBe(401);
      expect((await getJson(`${url}${servicePath(KEY_USAGE_CALL, { tokenId: 7 })}`)).status).toBe(401);
    });
  });

  it('settles a batch with events of two users, and dead-letters only the malformed record in it', async () => {
    const database = await infra.createDatabase();
    const first = randomUserId();
    const second = userOnSamePartition(first);
    const malformedKey = `not-a-usage-${infra.runId}`;

    const audit = await runBilling(database, async () => {
      await infra.runtime.bus.publish([
        { topic: USAGE_RECORDED, key: String(first), value: aUsageEvent(first, 100) },
        { topic: USAGE_RECORDED, key: String(second), value: aUsageEvent(second, 250) },
        { topic: USAGE_RECORDED, key: malformedKey, value: { v: 1, event_id: 'nope' } },
        { topic: USAGE_RECORDED, key: String(first), value: aUsageEvent(first, 30) },
      ]);
      await balanceAfter(first, 2);
      await balanceAfter(second, 1);
      await eventually('the malformed usage event on usage.recorded.dlq', async () =>
        deadLetters.records.find((record) => record.key === malformedKey),
      );
    });

    expect(await settledState(database, first)).toEqual(charged([100, 30]));
    expect(await settledState(database, second)).toEqual(charged([250]));
    expect(audit).toEqual(auditIsClean);
  });

  it('charges once after a crash between the database commit and the offset commit', async () => {
    const database = await infra.createDatabase();
    const userId = randomUserId();
    const event = aUsageEvent(userId, 5_000);
    const crashes = crashingAfterCommit(infra.runtime.bus);

    // Every handler call commits its transaction and then fails, so the offset is never committed.
    await runBilling(
      database,
      async () => {
        await publish([event]);
        await crashes.first;
        await balanceAfter(userId, 1);
      },
      { ...infra.runtime, bus: crashes.bus },
    );
    const after = aUsageEvent(userId, 1);
    await publish([after]);
    // Restarted without the fault: the bus delivers the settled event again, then the next one.
    const audit = await runBilling(database, async () => {
      await balanceAfter(userId, 2);
    });

    expect(deadLetters.records.filter((record) => record.key === String(userId))).toEqual([]);
    expect(await settledState(database, userId)).toEqual(charged([5_000, 1]));
    expect(audit).toEqual(auditIsClean);
  });

  it('settles 50 events of one user published concurrently exactly', async () => {
    const database = await infra.createDatabase();
    const userId = randomUserId();
    const quotas = Array.from({ length: 50 }, (_, i) => 1_000 + i);

    const audit = await runBilling(database, async () => {
      await Promise.all(quotas.map((quota) => publish([aUsageEvent(userId, quota)])));
      await balanceAfter(userId, quotas.length);
    });

    expect(await settledState(database, userId)).toEqual(charged(quotas));
    expect(audit).toEqual(auditIsClean);
  });

  it("exports the usage group's lag per partition, down to 0 once it has settled", async () => {
    const database = await infra.createDatabase();
    const userId = randomUserId();
    const billing = await startBilling(billingEnv(database), infra.runtime);
    try {
      await waitUntilReady(billing.url);
      await publish([aUsageEvent(userId, 10)]);
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
    } finally {
      await billing.close();
    }
  });
});
