export interface OutboxInsertSql {
  /** The earlier CTE whose rows are published, one event each. */
  from: string;
  /** Its alias, as `valueSql` names it. */
  alias: string;
  /** The column that is the event's key; rows go into the outbox in its order. */
  keyColumn: string;
  /** SQL building the event's value (json) from the row. */
  valueSql: string;
}

/**
 * The body of a data-modifying CTE that puts one event per row of an earlier CTE into the outbox: for
 * a statement that changes rows and publishes them in one go (billing's settlement, auth's key usage),
 * what `enqueueOutbox` does for a transaction. It binds two parameters, in this order: the topic, and
 * the headers as a JSON object's text (`currentCorrelationHeaders()`, as enqueueOutbox gives them).
 */
export function outboxInsertSql({ from, alias, keyColumn, valueSql }: OutboxInsertSql): string {
  return `insert into "outbox_messages" ("topic", "key", "value", "headers")
  select ?, ${alias}."${keyColumn}"::text, ${valueSql}, ?::jsonb
  from "${from}" ${alias}
  order by ${alias}."${keyColumn}"
  returning 1`;
}
