import { Module, type DynamicModule } from '@nestjs/common';
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
            entities: [Account, ModelPrice, GroupRatio, LedgerEntry],
            migrations: [AccountsMigration, PricesMigration, LedgerMigration, UsageLogsMigration],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
        PricingModule,
        LedgerModule,
        UsageModule,
      ],
      providers: [AccountsService, IdentityUserConsumer],
    };
  }
}
