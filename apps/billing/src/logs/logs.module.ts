import { Module } from '@nestjs/common';
import { ExportCooldown } from './export-cooldown';
import { LogsController } from './logs.controller';
import { LogsRepository } from './logs.repository';
import { LogsService } from './logs.service';
import { UsernamesConsumer } from './usernames.consumer';
import { UsernamesRepository } from './usernames.repository';

@Module({
  controllers: [LogsController],
  providers: [LogsRepository, LogsService, ExportCooldown, UsernamesRepository, UsernamesConsumer],
})
export class LogsModule {}
