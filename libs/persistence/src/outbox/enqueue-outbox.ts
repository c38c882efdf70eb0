import type { EntityManager } from '@mikro-orm/core';
import type { OutgoingEvent } from '@tollgate/events';
import { toOutboxRow } from './outbox-event';
import { OutboxMessage } from './outbox-message.entity';

/**
 * Stores events in the outbox as part of the caller's transaction, so they are published if and
 * only if the change they describe commits. Call `OutboxRelay.nudge()` after the commit.
 */
export async function enqueueOutbox(em: EntityManager, events: readonly OutgoingEvent[]): Promise<void> {
  if (events.length === 0) return;
  if (!em.isInTransaction()) {
    throw new Error('enqueueOutbox must run inside the transaction that makes the change (em.transactional)');
  }
  await em.insertMany(OutboxMessage, events.map(toOutboxRow));
}
