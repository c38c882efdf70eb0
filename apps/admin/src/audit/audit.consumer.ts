import { Controller } from '@nestjs/common';
import { auditRecordedV1, TOPICS, type AuditRecorded } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import { AuditRepository } from './audit.repository';

/** The declared group; AUDIT_CONSUMER_GROUP replaces it (the transport's groupIds). */
export const AUDIT_GROUP = 'admin.audit';

/**
 * Stores audit.recorded from every service. Offsets are committed after the batch is stored, so a
 * crash redelivers it and the unique event id makes that a no-op.
 */
@Controller()
export class AuditConsumer {
  constructor(private readonly audit: AuditRepository) {}

  @BusEvent(TOPICS.auditRecorded.name, { group: AUDIT_GROUP, schema: auditRecordedV1 })
  async store(events: DecodedEvent<AuditRecorded>[]): Promise<void> {
    await this.audit.add(events.map((event) => event.value));
  }
}
