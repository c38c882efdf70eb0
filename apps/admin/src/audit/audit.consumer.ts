import { Inject, Injectable } from '@nestjs/common';
import { auditRecordedV1, TOPICS, type AuditRecorded } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { InjectServiceConfig } from '@tollgate/platform';
import { BusConsumer, type DecodedEvent } from '@tollgate/runtime';
import type { AdminConfig } from '../config';
import { AuditRepository } from './audit.repository';

/**
 * Stores audit.recorded from every service. Offsets are committed after the batch is stored, so a
 * crash redelivers it and the unique event id makes that a no-op.
 */
@Injectable()
export class AuditConsumer extends BusConsumer<AuditRecorded> {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly audit: AuditRepository,
    @InjectServiceConfig() config: AdminConfig,
  ) {
    super(bus, {
      groupId: config.AUDIT_CONSUMER_GROUP,
      topics: [TOPICS.auditRecorded.name],
      schema: auditRecordedV1,
    });
  }

  async handle(events: DecodedEvent<AuditRecorded>[]): Promise<void> {
    await this.audit.add(events.map((event) => event.value));
  }
}
