import { Module, type DynamicModule } from '@nestjs/common';
import { BillingSettings } from '../settings/billing-settings';
import { RETENTION_SETTINGS, type RetentionSettings } from './retention-settings';
import { RetentionController } from './retention.controller';
import { RetentionJob } from './retention.job';
import { RetentionRepository } from './retention.repository';
import { RetentionService } from './retention.service';

/** The usage log's retention: the periodic clean-up job and the admin's manual purge. */
@Module({})
export class RetentionModule {
  /** `days` applies while no operator has set LogRetentionDays. */
  static register(settings: Omit<RetentionSettings, 'days'>): DynamicModule {
    return {
      module: RetentionModule,
      controllers: [RetentionController],
      providers: [
        {
          provide: RETENTION_SETTINGS,
          useFactory: (operators: BillingSettings): RetentionSettings => ({
            ...settings,
            days: () => operators.logRetentionDays(),
          }),
          inject: [BillingSettings],
        },
        RetentionRepository,
        RetentionService,
        RetentionJob,
      ],
    };
  }
}
