import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import type { OutgoingEvent } from '@tollgate/events';
import { toOutboxRow } from './outbox-event';

/**
 * The rows as one bound json parameter, inserted in the order given (ids are the publication
 * order). Through the transaction's knex, not `em.insertMany`, which copies every value into the
 * SQL text escaped, character by character (query-rows.ts). A JSON null value becomes SQL null (a
 * tombstone), as the entity wrote it.
 */
const INSERT_SQL = `insert into "outbox_messages" ("topic", "key", "value", "headers")
select "topic", "key", "value", "headers"
from rows from (
  json_to_recordset(?::json) as ("topic" text, "key" text, "value" jsonb, "headers" jsonb)
) with ordinality as x("topic", "key", "value", "headers", "position")
order by "position"`;

/**
 * Stores events in the outbox as part of the caller's transaction, so they are published if and
 * only if the change they describe commits. Call `OutboxRelay.nudge()` after the commit.
 */
export async function enqueueOutbox(em: EntityManager, events: readonly OutgoingEvent[]): Promise<void> {
  if (events.length === 0) return;
  const trx = em.isInTransaction() ? em.getTransactionContext<Knex.Transaction>() : undefined;
  if (!trx) {
    throw new Error('enqueueOutbox must run inside the transaction that makes the change (em.transactional)');
  }
  await trx.raw(INSERT_SQL, [JSON.stringify(events.map(toOutboxRow))]);
}
