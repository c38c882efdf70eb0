import { Module, type DynamicModule } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import {
  BILLING_GAUGES_SCHEDULE,
  BillingGaugesExporter,
  type BillingGaugesSchedule,
} from './billing-gauges.exporter';
import { BillingGaugesRepository } from './billing-gauges.repository';

/** Billing's business and ledger-audit gauges (docs/monitoring.md). */
@Module({})
export class BillingGaugesModule {
  static register(schedule: BillingGaugesSchedule): DynamicModule {
    return {
      module: BillingGaugesModule,
      imports: [LedgerModule],
      providers: [
        { provide: BILLING_GAUGES_SCHEDULE, useValue: schedule },
        BillingGaugesRepository,
        BillingGaugesExporter,
      ],
    };
  }
}
