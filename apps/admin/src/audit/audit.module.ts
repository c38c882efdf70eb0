import { Module } from '@nestjs/common';
import { AuditConsumer } from './audit.consumer';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';

@Module({
  controllers: [AuditController, AuditConsumer],
  providers: [AuditRepository],
})
export class AuditModule {}
