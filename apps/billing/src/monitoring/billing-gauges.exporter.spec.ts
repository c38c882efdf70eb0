import { METRICS, MetricsService } from '@tollgate/platform';
import type { LedgerAuditService, LedgerDiscrepancy } from '../ledger/ledger-audit.service';
import { BillingGaugesExporter } from './billing-gauges.exporter';
import type { ActivityWindow, BillingGaugesRepository, PaymentTotals } from './billing-gauges.repository';

function setup(totals: PaymentTotals[], discrepancies: LedgerDiscrepancy[] | Error) {
  const metrics = new MetricsService('billing');
  const repository = {
    paymentTotals: jest.fn(async () => totals),
    activity: jest.fn(async (window: ActivityWindow) =>
      window === '1h' ? { keys: 2, users: 1 } : { keys: 5, users: 4 },
    ),
  };
  const audit = {
    discrepancies: jest.fn(async () => {
      if (discrepancies instanceof Error) throw discrepancies;
      return discrepancies;
    }),
  };
  const exporter = new BillingGaugesExporter(
    { businessIntervalMs: 60_000, auditIntervalMs: 300_000 },
    repository as unknown as BillingGaugesRepository,
    audit as unknown as LedgerAuditService,
    metrics,
  );
  const values = async (name: string) => (await metrics.registry.getSingleMetric(name)?.get())?.values;
  return { metrics, repository, exporter, values };
}

describe('BillingGaugesExporter', () => {
  it('publishes payments by provider and status, in kopecks, and the keys and users active per window', async () => {
    const { exporter, values, repository } = setup(
      [
        { provider: 'yookassa', status: 'success', count: 3, kopecks: 150_000 },
        { provider: 'crypto', status: 'pending', count: 1, kopecks: 9_999 },
      ],
      [],
    );
    await exporter.exportBusiness();
    expect(await values(METRICS.payments.name)).toEqual([
      { value: 3, labels: { provider: 'yookassa', status: 'success' } },
      { value: 1, labels: { provider: 'crypto', status: 'pending' } },
    ]);
    expect(await values(METRICS.paymentsAmount.name)).toEqual([
      { value: 150_000, labels: { provider: 'yookassa', status: 'success' } },
      { value: 9_999, labels: { provider: 'crypto', status: 'pending' } },
    ]);
    expect(await values(METRICS.activeApiKeys.name)).toEqual([
      { value: 2, labels: { window: '1h' } },
      { value: 5, labels: { window: '1d' } },
    ]);
    expect(await values(METRICS.activeUsers.name)).toEqual([
      { value: 1, labels: { window: '1h' } },
      { value: 4, labels: { window: '1d' } },
    ]);

    // A status no payment holds any more disappears instead of keeping its last count.
    repository.paymentTotals.mockResolvedValueOnce([
      { provider: 'yookassa', status: 'refunded', count: 3, kopecks: 150_000 },
    ]);
    await exporter.exportBusiness();
    expect(await values(METRICS.payments.name)).toEqual([
      { value: 3, labels: { provider: 'yookassa', status: 'refunded' } },
    ]);
  });

  it('publishes how many accounts the ledger audit found wrong and when it last ran', async () => {
    const { exporter, values, metrics } = setup(
      [],
      [
        { user_id: 4, quota: 100, ledger_sum: 90 },
        { user_id: 8, quota: 0, ledger_sum: -5 },
      ],
    );
    const before = Math.floor(Date.now() / 1000);
    await exporter.exportAudit();
    expect(await values(METRICS.ledgerAuditMismatches.name)).toEqual([{ value: 2, labels: {} }]);
    const [lastRun] = (await values(METRICS.ledgerAuditLastRun.name)) ?? [];
    expect(lastRun?.value).toBeGreaterThanOrEqual(before);
    expect(await metrics.render()).toMatch(
      /tollgate_ledger_audit_mismatched_accounts\{service="billing"\} 2/,
    );
  });

  it('keeps running when the audit fails, and leaves the last-run time unset so the staleness alert fires', async () => {
    const { exporter, values } = setup([], new Error('connection refused'));
    exporter.onApplicationBootstrap();
    await exporter.onModuleDestroy();
    expect(await values(METRICS.ledgerAuditLastRun.name)).toBeUndefined();
    expect(await values(METRICS.payments.name)).toEqual([]);
  });
});
