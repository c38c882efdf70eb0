import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { MetricsService } from '@tollgate/platform';
import { LedgerAuditService } from '../ledger/ledger-audit.service';
import { ACTIVITY_WINDOWS, BillingGaugesRepository, type ActivityWindow } from './billing-gauges.repository';

export const BILLING_GAUGES_SCHEDULE = Symbol('BILLING_GAUGES_SCHEDULE');

export interface BillingGaugesSchedule {
  /** Payments and active keys/users. */
  businessIntervalMs: number;
  /** The ledger audit reads every entry: less often. */
  auditIntervalMs: number;
}

/** One periodic job: runs it at once and then on an interval, never two runs at a time. */
class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
    this.tick();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private tick(): void {
    this.running ??= this.run().finally(() => (this.running = undefined));
  }
}

/**
 * Publishes what operators watch about money from billing's own database: payments by provider and
 * status, API keys and users active in the last hour and day, and the ledger audit (accounts whose
 * balance is not the sum of their entries). Values are the database's, so every replica reports the
 * same and a restart loses nothing; dashboards take max() across replicas.
 */
@Injectable()
export class BillingGaugesExporter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BillingGaugesExporter.name);
  private readonly jobs: Periodic[];
  private readonly failing = new Set<string>();

  constructor(
    @Inject(BILLING_GAUGES_SCHEDULE) schedule: BillingGaugesSchedule,
    private readonly repository: BillingGaugesRepository,
    private readonly audit: LedgerAuditService,
    private readonly metrics: MetricsService,
  ) {
    this.jobs = [
      new Periodic(
        () => this.guard('business gauges', () => this.exportBusiness()),
        schedule.businessIntervalMs,
      ),
      new Periodic(() => this.guard('ledger audit', () => this.exportAudit()), schedule.auditIntervalMs),
    ];
  }

  onApplicationBootstrap(): void {
    for (const job of this.jobs) job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.jobs.map((job) => job.stop()));
  }

  async exportBusiness(): Promise<void> {
    const count = this.metrics.gauge('payments');
    const amount = this.metrics.gauge('paymentsAmount');
    const totals = await this.repository.paymentTotals();
    // A status no payment holds any more (all refunded, say) reads 0, not its last value.
    count.reset();
    amount.reset();
    for (const { provider, status, count: n, kopecks } of totals) {
      count.set({ provider, status }, n);
      amount.set({ provider, status }, kopecks);
    }
    for (const window of Object.keys(ACTIVITY_WINDOWS) as ActivityWindow[]) {
      const { keys, users } = await this.repository.activity(window);
      this.metrics.gauge('activeApiKeys').set({ window }, keys);
      this.metrics.gauge('activeUsers').set({ window }, users);
    }
  }

  async exportAudit(): Promise<void> {
    const discrepancies = await this.audit.discrepancies();
    this.metrics.gauge('ledgerAuditMismatches').set(discrepancies.length);
    this.metrics.gauge('ledgerAuditLastRun').set(Math.floor(Date.now() / 1000));
    if (discrepancies.length > 0) {
      this.logger.error(
        `ledger audit: ${discrepancies.length} account(s) differ from their ledger (GET /api/log/ledger-audit)`,
      );
    }
  }

  /** A failure is logged once until the job works again; the gauges keep their last values. */
  private async guard(name: string, job: () => Promise<void>): Promise<void> {
    try {
      await job();
      this.failing.delete(name);
    } catch (error) {
      if (!this.failing.has(name)) this.logger.warn(`${name} failed: ${(error as Error).message}`);
      this.failing.add(name);
    }
  }
}
