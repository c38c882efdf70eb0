import { Inject, Injectable } from '@nestjs/common';
import { auditRecordedV1, TOPICS, type AuditRecorded } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus, type EventRecord } from '@tollgate/events';
import { InjectLogger, InjectServiceConfig, type Logger } from '@tollgate/platform';
import { BusConsumer } from '@tollgate/runtime';
import type { AdminConfig } from '../config';
import { AuditRepository } from './audit.repository';

/**
 * Stores audit.recorded from every service. Offsets are committed after the batch is stored, so a
 * crash redelivers it and the unique event id makes that a no-op. A record that is not an
 * audit.recorded v1 is skipped with a warning: nothing else can be done with it.
 */
@Injectable()
export class AuditConsumer extends BusConsumer {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly audit: AuditRepository,
    @InjectLogger() private readonly logger: Logger,
    @InjectServiceConfig() config: AdminConfig,
  ) {
    super(bus, { groupId: config.AUDIT_CONSUMER_GROUP, topics: [TOPICS.auditRecorded.name] });
  }

  async handle(batch: EventRecord[]): Promise<void> {
    const events: AuditRecorded[] = [];
    for (const record of batch) {
      const parsed = auditRecordedV1.safeParse(record.value);
      if (parsed.success) events.push(parsed.data);
      else
        this.logger.warn(
          { topic: record.topic, offset: record.offset },
          'audit event skipped: not an audit.recorded v1',
        );
    }
    await this.audit.add(events);
  }
}
