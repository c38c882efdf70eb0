import { Module, type DynamicModule } from '@nestjs/common';
import { RETENTION_SETTINGS, type RetentionSettings } from './retention-settings';
import { RetentionController } from './retention.controller';
import { RetentionJob } from './retention.job';
import { RetentionRepository } from './retention.repository';
import { RetentionService } from './retention.service';

/** The usage log's retention: the periodic clean-up job and the admin's manual purge. */
@Module({})
export class RetentionModule {
  static register(settings: RetentionSettings): DynamicModule {
    return {
      module: RetentionModule,
      controllers: [RetentionController],
      providers: [
        { provide: RETENTION_SETTINGS, useValue: settings },
        RetentionRepository,
        RetentionService,
        RetentionJob,
      ],
    };
  }
}
