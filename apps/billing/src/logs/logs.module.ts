import { Module, type DynamicModule } from '@nestjs/common';
import { ExchangeRateModule } from '../exchange-rate/exchange-rate.module';
import { KeyUsageController } from '../key-usage/key-usage.controller';
import { KeyUsageRepository } from '../key-usage/key-usage.repository';
import { ExportCooldown } from './export-cooldown';
import { LOG_EXPORT_SETTINGS, type LogExportSettings } from './log-export-settings';
import { LogsController } from './logs.controller';
import { LogsRepository } from './logs.repository';
import { LogsService } from './logs.service';
import { UsernamesConsumer } from './usernames.consumer';
import { UsernamesRepository } from './usernames.repository';

/**
 * The usage and balance log: lists, CSV exports, the usernames they show, and what relay reads of it
 * for API clients (a key's spending, one call by its answer's id).
 */
@Module({})
export class LogsModule {
  static register(settings: LogExportSettings): DynamicModule {
    return {
      module: LogsModule,
      imports: [ExchangeRateModule],
      controllers: [LogsController, KeyUsageController, UsernamesConsumer],
      providers: [
        { provide: LOG_EXPORT_SETTINGS, useValue: settings },
        LogsRepository,
        LogsService,
        ExportCooldown,
        UsernamesRepository,
        KeyUsageRepository,
      ],
    };
  }
}
