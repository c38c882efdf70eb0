import { Module, type DynamicModule } from '@nestjs/common';
import { ExportCooldown } from './export-cooldown';
import { LOG_EXPORT_SETTINGS, type LogExportSettings } from './log-export-settings';
import { LogsController } from './logs.controller';
import { LogsRepository } from './logs.repository';
import { LogsService } from './logs.service';
import { UsernamesConsumer } from './usernames.consumer';
import { UsernamesRepository } from './usernames.repository';

/** The usage and balance log: lists, CSV exports, and the usernames they show. */
@Module({})
export class LogsModule {
  static register(settings: LogExportSettings): DynamicModule {
    return {
      module: LogsModule,
      controllers: [LogsController],
      providers: [
        { provide: LOG_EXPORT_SETTINGS, useValue: settings },
        LogsRepository,
        LogsService,
        ExportCooldown,
        UsernamesRepository,
        UsernamesConsumer,
      ],
    };
  }
}
