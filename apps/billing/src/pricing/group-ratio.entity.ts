import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** A user group's multiplier on list prices (NUMERIC, as a decimal string). */
@Entity({ tableName: 'group_ratios' })
export class GroupRatio {
  @PrimaryKey({ type: 'text' })
  group!: string;

  @Property({ type: 'decimal', columnType: 'numeric(10,6)' })
  ratio!: string;

  /** When this version of the entry went into the outbox for billing.price; null until it has. */
  @Property({ type: 'datetime', nullable: true })
  publishedAt: Opt<Date> | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
