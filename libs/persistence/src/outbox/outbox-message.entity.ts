import { BigIntType, Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** One event waiting to be published (or recently published), written in the service's own transaction. */
@Entity({ tableName: 'outbox_messages' })
export class OutboxMessage {
  /** Publication order. */
  @PrimaryKey({ type: new BigIntType('string'), autoincrement: true })
  id!: string;

  @Property({ type: 'text' })
  topic!: string;

  @Property({ type: 'text' })
  key!: string;

  /** JSON payload; `null` is a tombstone. */
  @Property({ type: 'json', nullable: true })
  value!: unknown;

  @Property({ type: 'json' })
  headers!: Record<string, string>;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt!: Opt<Date>;

  @Property({ type: 'datetime', nullable: true })
  publishedAt!: Date | null;
}
