import { randomUUID } from 'node:crypto';
import { TOPICS } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { METRICS } from '@tollgate/platform';
import { eventually, INFRASTRUCTURES, randomUserId, withDatabase } from '@tollgate/testing';
import { BillingHarness } from './billing-harness';
import { aUsageEvent } from './builders';

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
  const harness = new BillingHarness(kind, 'billing-monitoring-it', {
    topics: [TOPICS.usageRecorded],
    record: [TOPICS.billingBalance],
  });

  /** Billing running on the database until `whileRunning` ends; its /metrics text is handed over. */
  const withBilling = <T>(
    database: TestDatabase,
    whileRunning: (metrics: () => Promise<string>) => Promise<T>,
  ): Promise<T> =>
    harness.run(database, (billing) =>
      whileRunning(async () => (await fetch(`${billing.url}/metrics`)).text()),
    );

  beforeAll(() => harness.open());
  afterAll(() => harness.close());

  it('publishes payments by provider and status, keys and users active in the last hour and day, and the ledger audit', async () => {
    const database = await harness.migratedDatabase();
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
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const model = `monitoring-${randomUUID().slice(0, 8)}`;
    const event = aUsageEvent(userId, { model, upstream_model: model, quota: 1234 });
    const text = await withBilling(database, async (metrics) => {
      await harness.publishUsage([event]);
      await harness.balanceAfter(userId, 1);
      await harness.publishUsage([event]);
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
