import { randomBytes, randomUUID } from 'node:crypto';
import { TOPICS, type BillingBalance, type UsageRecorded } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { METRICS } from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(90_000);

/** The value of one series in a /metrics text, matched by all the given labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([label, value]) => line.includes(`${label}="${value}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(INFRASTRUCTURES)("billing's monitoring metrics on %s infrastructure", (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let balances: TopicRecorder;
  const secret = randomBytes(32).toString('hex');

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
  });

  /** Billing running on the database until `whileRunning` ends; its /metrics text is handed over. */
  const withBilling = async <T>(
    database: TestDatabase,
    whileRunning: (metrics: () => Promise<string>) => Promise<T>,
  ): Promise<T> => {
    const billing = await startBilling(billingEnv(database), infra.runtime);
    try {
      await waitUntilReady(billing.url);
      return await whileRunning(async () => (await fetch(`${billing.url}/metrics`)).text());
    } finally {
      await billing.close();
    }
  };

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-monitoring-it');
    await infra.runtime.bus.ensureTopics([TOPICS.usageRecorded, TOPICS.billingBalance]);
    balances = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingBalance.name,
      `billing-monitoring-it.balances.${infra.runId}`,
    );
  });

  afterAll(async () => {
    await balances?.stop();
    await infra?.close();
  });

  it('publishes payments by provider and status, keys and users active in the last hour and day, and the ledger audit', async () => {
    const database = await infra.createDatabase();
    await withBilling(database, async () => undefined); // migrates
    const [payer, tampered, recent, older] = [randomUserId(), randomUserId(), randomUserId(), randomUserId()];
    // On PGlite the running service holds the one connection: the rows go in while billing is stopped.
    await withDatabase(database, async (query) => {
      await query('insert into accounts (user_id, quota) values (?, 0), (?, 999), (?, 0), (?, 0)', [
        payer,
        tampered,
        recent,
        older,
      ]);
      const payment = `insert into payments (user_id, provider, status, amount, usd_rub, quota, email, idempotence_key)
        values (?, ?, ?, ?, 90, 1000, 'payer@example.com', ?)`;
      await query(payment, [payer, 'yookassa', 'success', '100.50', randomUUID()]);
      await query(payment, [payer, 'yookassa', 'success', '200.00', randomUUID()]);
      await query(payment, [payer, 'crypto', 'pending', '1500.00', randomUUID()]);
      await query(payment, [payer, 'test', 'test_success', '10.00', randomUUID()]);
      const usage = `insert into usage_logs (event_id, created_at, user_id, token_id, token_name, model, upstream_model,
          prompt_tokens, completion_tokens, cached_tokens, quota, latency_ms, is_stream, status, "group", request_id)
        values (?, now() - ?::interval, ?, ?, 'k', 'gpt', 'gpt', 1, 1, 0, 0, 1, false, 'success', 'default', 'r')`;
      await query(usage, [randomUUID(), '5 minutes', recent, 71]);
      await query(usage, [randomUUID(), '10 minutes', recent, 72]);
      await query(usage, [randomUUID(), '3 hours', older, 73]);
      await query(usage, [randomUUID(), '3 days', older, 74]);
    });

    const text = await withBilling(database, (metrics) =>
      eventually('the business gauges and the ledger audit in /metrics', async () => {
        const text = await metrics();
        // The windows are set one after the other: wait for the last of them.
        return text.includes(METRICS.ledgerAuditLastRun.name) &&
          sample(text, METRICS.activeUsers.name, { window: '1d' }) !== undefined
          ? text
          : undefined;
      }),
    );

    expect(sample(text, METRICS.payments.name, { provider: 'yookassa', status: 'success' })).toBe(2);
    expect(sample(text, METRICS.paymentsAmount.name, { provider: 'yookassa', status: 'success' })).toBe(
      30_050,
    );
    expect(sample(text, METRICS.payments.name, { provider: 'crypto', status: 'pending' })).toBe(1);
    expect(sample(text, METRICS.paymentsAmount.name, { provider: 'test', status: 'test_success' })).toBe(
      1_000,
    );
    expect(sample(text, METRICS.activeApiKeys.name, { window: '1h' })).toBe(2);
    expect(sample(text, METRICS.activeApiKeys.name, { window: '1d' })).toBe(3);
    expect(sample(text, METRICS.activeUsers.name, { window: '1h' })).toBe(1);
    expect(sample(text, METRICS.activeUsers.name, { window: '1d' })).toBe(2);
    // The tampered account has a balance and no entries: the audit counts it and nothing else.
    expect(sample(text, METRICS.ledgerAuditMismatches.name)).toBe(1);
    expect(sample(text, METRICS.ledgerAuditLastRun.name)).toBeGreaterThan(Date.now() / 1000 - 120);
  });

  it('counts usage events settled and repeated, and the quota charged by model', async () => {
    const database = await infra.createDatabase();
    const userId = randomUserId();
    const model = `monitoring-${randomUUID().slice(0, 8)}`;
    const event: UsageRecorded = {
      v: 1,
      event_id: randomUUID(),
      request_id: 'req-monitoring',
      user_id: userId,
      token_id: 7,
      token_name: 'ci',
      channel_id: 3,
      group: 'default',
      model,
      upstream_model: model,
      prompt_tokens: 10,
      completion_tokens: 5,
      cached_tokens: 0,
      quota: 1234,
      price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
      latency_ms: 100,
      ttft_ms: null,
      is_stream: false,
      status: 'success',
      created_at: Math.floor(Date.now() / 1000),
    };
    const text = await withBilling(database, async (metrics) => {
      const publish = () =>
        infra.runtime.bus.publish([{ topic: TOPICS.usageRecorded.name, key: String(userId), value: event }]);
      await publish();
      await eventually(`billing.balance of user ${userId}`, async () =>
        balances.values<BillingBalance>((b) => b.user_id === userId && b.request_count >= 1).at(0),
      );
      await publish();
      return eventually('the repeated event counted as a duplicate', async () => {
        const text = await metrics();
        const duplicates = sample(text, METRICS.usageEvents.name, { outcome: 'duplicate' });
        return duplicates !== undefined && duplicates >= 1 ? text : undefined;
      });
    });

    expect(sample(text, METRICS.chargedQuota.name, { model })).toBe(1234);
    expect(sample(text, METRICS.usageEvents.name, { outcome: 'settled' })).toBeGreaterThanOrEqual(1);
  });
});
