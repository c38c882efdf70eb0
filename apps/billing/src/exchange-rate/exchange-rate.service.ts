import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { LockMode } from '@mikro-orm/core';
import { normalizeDecimal, type ExchangeRate } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay, recordAudit, type AuditActor } from '@tollgate/persistence';
import { InjectServiceConfig } from '@tollgate/platform';
import type { BillingConfig } from '../config';
import { CbrClient } from './cbr.client';
import { ExchangeRateRecord, USD_RUB } from './exchange-rate.entity';
import { BillingSettings } from '../settings/billing-settings';
import { exchangeRateEvent } from './rate-events';
import { rateInForce, withMarkup, type StoredRates } from './rate-in-force';

/** Replicas read the stored rates at most this often; a change made elsewhere shows within it. */
const CACHE_MS = 10_000;
/** After a failed fetch, asking for the rate does not wait on the bank again before this. */
const RETRY_AFTER_FAILURE_MS = 60_000;

/**
 * The dollar's rate in rubles: the Central Bank's daily rate, fetched periodically and kept in the
 * database, an admin override, and the configured fallback when the bank was never reached.
 */
@Injectable()
export class ExchangeRateService {
  private readonly logger = new Logger(ExchangeRateService.name);
  private cached: { stored: StoredRates; readAt: number } | undefined;
  private refreshing: Promise<boolean> | undefined;
  private lastFailureAt = 0;
  /** The rate this replica last put on billing.price; publications run one at a time. */
  private published: string | undefined;
  private publishing: Promise<void> = Promise.resolve();

  constructor(
    private readonly em: EntityManager,
    private readonly bank: CbrClient,
    @InjectServiceConfig() private readonly config: BillingConfig,
    private readonly settings: BillingSettings,
    private readonly outbox: OutboxRelay,
  ) {}

  async current(): Promise<ExchangeRate> {
    const stored = await this.stored();
    if (stored.bankRate === null && stored.overrideRate === null && this.mayAskTheBank()) {
      await this.refresh();
    }
    return this.inForce();
  }

  /** The rate in force from what is stored (never asking the bank), markup included. */
  private async inForce(): Promise<ExchangeRate> {
    const stored = await this.stored();
    const rate = rateInForce(
      stored,
      {
        staleAfterMs: this.config.EXCHANGE_RATE_STALE_AFTER_SECONDS * 1000,
        configuredRate: this.config.TOLLGATE_USD_RUB,
      },
      new Date(),
    );
    // Top-ups and ruble prices use the rate with the operators' markup.
    return { ...rate, usd_rub: withMarkup(rate.usd_rub, this.settings.exchangeRateMarkupPercent()) };
  }

  /** Fetches the bank's rate and stores it; a failure is recorded and the last known rate stays. Never throws. */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.fetchAndStore().finally(() => {
      this.refreshing = undefined;
      void this.publishIfChanged();
    });
    return this.refreshing;
  }

  /**
   * Puts the rate in force on billing.price (through the outbox) when it differs from the one this
   * replica last published, so relay can tell ruble accounts their costs. Never throws.
   */
  publishIfChanged(): Promise<void> {
    this.publishing = this.publishing.then(() =>
      this.publishRate().catch((error: unknown) => {
        this.logger.warn(`the exchange rate could not be published: ${(error as Error).message}`);
      }),
    );
    return this.publishing;
  }

  private async publishRate(): Promise<void> {
    const rate = await this.inForce();
    if (rate.usd_rub === this.published) return;
    await this.em.fork().transactional((tx) => enqueueOutbox(tx, [exchangeRateEvent(rate)]));
    this.published = rate.usd_rub;
    this.outbox.nudge();
  }

  /** Sets (or, with null, removes) the admin's rate, which wins over the bank's until removed. */
  async setOverride(rate: string | null, actor: AuditActor): Promise<ExchangeRate> {
    await this.em.fork().transactional(async (tx) => {
      const before = await tx.findOne(
        ExchangeRateRecord,
        { pair: USD_RUB },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const previous = before?.overrideRate ?? null;
      await tx.nativeUpdate(
        ExchangeRateRecord,
        { pair: USD_RUB },
        rate === null
          ? { overrideRate: null, overrideSetAt: null, overrideSetBy: actor.userId, updatedAt: new Date() }
          : {
              overrideRate: rate,
              overrideSetAt: new Date(),
              overrideSetBy: actor.userId,
              updatedAt: new Date(),
            },
      );
      await recordAudit(tx, {
        service: 'billing',
        actor,
        action: 'exchange_rate.override',
        target: { kind: 'exchange_rate', id: USD_RUB },
        before: { usd_rub_override: previous === null ? null : normalizeDecimal(previous) },
        after: { usd_rub_override: rate },
      });
    });
    this.outbox.nudge();
    this.cached = undefined;
    await this.publishIfChanged();
    return this.current();
  }

  private mayAskTheBank(): boolean {
    return Date.now() - this.lastFailureAt > RETRY_AFTER_FAILURE_MS;
  }

  private async fetchAndStore(): Promise<boolean> {
    const em = this.em.fork();
    try {
      const { rate, date } = await this.bank.usdRate();
      await em.nativeUpdate(
        ExchangeRateRecord,
        { pair: USD_RUB },
        { bankRate: rate, bankRateDate: date, bankFetchedAt: new Date(), updatedAt: new Date() },
      );
      this.cached = undefined;
      return true;
    } catch (error) {
      this.lastFailureAt = Date.now();
      this.logger.warn(`the Central Bank's rate could not be refreshed: ${(error as Error).message}`);
      await em
        .nativeUpdate(ExchangeRateRecord, { pair: USD_RUB }, { bankFailedAt: new Date() })
        .catch(() => undefined);
      this.cached = undefined;
      return false;
    }
  }

  private async stored(): Promise<StoredRates> {
    if (this.cached && Date.now() - this.cached.readAt < CACHE_MS) return this.cached.stored;
    const record = await this.em.fork().findOneOrFail(ExchangeRateRecord, { pair: USD_RUB });
    const stored: StoredRates = {
      bankRate: record.bankRate,
      bankFetchedAt: record.bankFetchedAt,
      overrideRate: record.overrideRate,
      overrideSetAt: record.overrideSetAt,
    };
    this.cached = { stored, readAt: Date.now() };
    return stored;
  }
}
