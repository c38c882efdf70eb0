import { Module, type DynamicModule } from '@nestjs/common';
import { TOPICS } from '@tollgate/contracts';
import { readsConsumerLag } from '@tollgate/events';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import { Account } from './accounts/account.entity';
import { AccountsService } from './accounts/accounts.service';
import { IdentityUserConsumer } from './accounts/identity-user.consumer';
import type { BillingConfig } from './config';
import { AccountsMigration } from './migrations/20261122-accounts.migration';
import { LedgerEntry } from './ledger/ledger-entry.entity';
import { LedgerModule } from './ledger/ledger.module';
import { PricesMigration } from './migrations/20261123-prices.migration';
import { LedgerMigration } from './migrations/20261124-ledger.migration';
import { UsageLogsMigration } from './migrations/20261125-usage-logs.migration';
import { GroupRatio } from './pricing/group-ratio.entity';
import { ModelPrice } from './pricing/model-price.entity';
import { PricingModule } from './pricing/pricing.module';
import { UsageModule } from './usage/usage.module';
import { LogsStatisticsMigration } from './migrations/20261127-logs-statistics.migration';
import { UsageLog } from './logs/usage-log.entity';
import { Username } from './logs/username.entity';
import { LogsModule } from './logs/logs.module';
import { RetentionModule } from './retention/retention.module';
import { UsageDailyStat } from './statistics/usage-daily-stat.entity';
import { StatisticsModule } from './statistics/statistics.module';
import { ConsumerLagModule } from './usage/consumer-lag.module';
import { BillingGaugesModule } from './monitoring/billing-gauges.module';
import { USAGE_GROUP } from './usage/usage-recorded.consumer';
import { AdjustmentsModule } from './adjustments/adjustments.module';
import { AffiliateModule } from './affiliate/affiliate.module';
import { ExchangeRateRecord } from './exchange-rate/exchange-rate.entity';
import { ExchangeRateModule } from './exchange-rate/exchange-rate.module';
import { AffiliateMigration } from './migrations/20261126-affiliate.migration';
import { AffiliateReversalsMigration } from './migrations/20261126-affiliate-reversals.migration';
import { ExchangeRatesMigration } from './migrations/20261126-exchange-rates.migration';
import { PaymentsMigration } from './migrations/20261126-payments.migration';
import { PaymentRefundsMigration } from './migrations/20261228-payment-refunds.migration';
import { SignupBonusMigration } from './migrations/20261229-signup-bonus.migration';
import { UsageLogAnswersMigration } from './migrations/20261231-usage-log-answers.migration';
import { SettlementWritesMigration } from './migrations/20270101-settlement-writes.migration';
import { LedgerIndexesWithoutUsageMigration } from './migrations/20270102-ledger-indexes-without-usage.migration';
import { LedgerWithoutAccountCheckMigration } from './migrations/20270103-ledger-without-account-check.migration';
import { UsageLogKeyedByEventMigration } from './migrations/20270104-usage-log-keyed-by-event.migration';
import { PerUserRowsHotUpdatesMigration } from './migrations/20270105-per-user-rows-hot-updates.migration';
import { CacheWritePricesMigration } from './migrations/20270106-cache-write-prices.migration';
import { UsageLogCacheWritesMigration } from './migrations/20270107-usage-log-cache-writes.migration';
import { DailyStatCacheWritesMigration } from './migrations/20270108-daily-stat-cache-writes.migration';
import { PaymentRefund } from './payments/payment-refund.entity';
import { BillingSettingsModule } from './settings/billing-settings.module';
import { Payment } from './payments/payment.entity';
import { PaymentsModule } from './payments/payments.module';
import { PromoCode } from './promo/promo-code.entity';
import { PromoModule } from './promo/promo.module';

@Module({})
export class BillingModule {
  static register(config: BillingConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: BillingModule,
      imports: [
        ServiceInfrastructureModule.forRoot({
          runtime,
          database: {
            url: config.DATABASE_URL,
            entities: [
              Account,
              ModelPrice,
              GroupRatio,
              LedgerEntry,
              UsageLog,
              Username,
              UsageDailyStat,
              ExchangeRateRecord,
              PromoCode,
              Payment,
              PaymentRefund,
            ],
            migrations: [
              AccountsMigration,
              PricesMigration,
              LedgerMigration,
              UsageLogsMigration,
              ExchangeRatesMigration,
              PaymentsMigration,
              AffiliateMigration,
              LogsStatisticsMigration,
              AffiliateReversalsMigration,
              PaymentRefundsMigration,
              SignupBonusMigration,
              UsageLogAnswersMigration,
              SettlementWritesMigration,
              LedgerIndexesWithoutUsageMigration,
              LedgerWithoutAccountCheckMigration,
              UsageLogKeyedByEventMigration,
              PerUserRowsHotUpdatesMigration,
              CacheWritePricesMigration,
              UsageLogCacheWritesMigration,
              DailyStatCacheWritesMigration,
            ],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
        PricingModule,
        LedgerModule,
        UsageModule,
        LogsModule.register({ exportBatchRows: config.LOG_EXPORT_BATCH_ROWS }),
        StatisticsModule,
        BillingSettingsModule,
        RetentionModule.register({
          intervalMs: config.LOG_RETENTION_INTERVAL_SECONDS * 1000,
          batchSize: config.LOG_RETENTION_BATCH_SIZE,
        }),
        ConsumerLagModule.register({
          // The runtime's own bus: the service's EVENT_BUS is a wrapper that only publishes and subscribes.
          reader: readsConsumerLag(runtime.bus) ? runtime.bus : undefined,
          groupId: USAGE_GROUP,
          topic: TOPICS.usageRecorded.name,
          intervalMs: config.CONSUMER_LAG_INTERVAL_SECONDS * 1000,
        }),
        BillingGaugesModule.register({ businessIntervalMs: 60_000, auditIntervalMs: 300_000 }),
        ExchangeRateModule,
        PromoModule,
        PaymentsModule,
        AffiliateModule,
        AdjustmentsModule,
      ],
      controllers: [IdentityUserConsumer],
      providers: [AccountsService],
    };
  }
}
