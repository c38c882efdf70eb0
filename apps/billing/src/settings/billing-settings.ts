import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  optionDecimal,
  optionFlag,
  optionInteger,
  SETTING_KEYS,
  type PaymentProviderName,
} from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { HealthRegistry, InjectServiceConfig } from '@tollgate/platform';
import { SettingsTable } from '@tollgate/runtime';
import type { BillingConfig } from '../config';

const PROVIDER_SWITCH: Record<Exclude<PaymentProviderName, 'test'>, string> = {
  yookassa: SETTING_KEYS.yookassaEnabled,
  crypto: SETTING_KEYS.cryptoEnabled,
};

/**
 * The operators' settings billing applies (catalog.option, kept in memory), each falling back to
 * billing's configuration while no operator has set it. Billing is ready once it has read the topic.
 */
@Injectable()
export class BillingSettings implements OnModuleInit, OnModuleDestroy {
  private table?: SettingsTable;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly health: HealthRegistry,
    @InjectServiceConfig() private readonly config: BillingConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.table = await SettingsTable.open(this.bus);
    this.health.registerReadinessCheck('settings', () => {
      if (!this.table?.isCaughtUp()) throw new Error('catalog.option is still being read');
    });
  }

  private get(key: string): string | undefined {
    return this.table?.get(key);
  }

  /** QuotaForNewUser: credited to each account billing opens for a new user (default 0). */
  quotaForNewUser(): number {
    return optionInteger(this.get(SETTING_KEYS.quotaForNewUser)) ?? 0;
  }

  /** AffiliateRewardPercent, else AFFILIATE_REWARD_PERCENT. */
  affiliateRewardPercent(): string {
    return (
      optionDecimal(this.get(SETTING_KEYS.affiliateRewardPercent)) ?? this.config.AFFILIATE_REWARD_PERCENT
    );
  }

  /** LogRetentionDays, else LOG_RETENTION_DAYS (0 keeps the usage log forever). */
  logRetentionDays(): number {
    return optionInteger(this.get(SETTING_KEYS.logRetentionDays)) ?? this.config.LOG_RETENTION_DAYS;
  }

  /** ExchangeRateMarkupPercent: added to the dollar's rate in force (default 0). */
  exchangeRateMarkupPercent(): string {
    return optionDecimal(this.get(SETTING_KEYS.exchangeRateMarkupPercent)) ?? '0';
  }

  /** Calls `listener` whenever ExchangeRateMarkupPercent is set or cleared; returns the unsubscribe. */
  onMarkupChange(listener: () => void): () => void {
    if (!this.table) throw new Error('the settings are read from start-up on');
    return this.table.onChange((key) => {
      if (key === SETTING_KEYS.exchangeRateMarkupPercent) listener();
    });
  }

  /** Whether an operator lets new top-ups use `provider` (configured or not: that is the provider's own check). */
  paymentsAllowed(provider: PaymentProviderName): boolean {
    if (provider === 'test') {
      return optionFlag(this.get(SETTING_KEYS.testPaymentEnabled)) ?? this.config.TOLLGATE_PAYMENT_TEST;
    }
    return optionFlag(this.get(PROVIDER_SWITCH[provider])) ?? true;
  }

  async onModuleDestroy(): Promise<void> {
    await this.table?.stop();
  }
}
