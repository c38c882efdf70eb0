import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** A model's list price in USD per 1M tokens. Prices are NUMERIC, read and written as decimal strings. */
@Entity({ tableName: 'model_prices' })
export class ModelPrice {
  @PrimaryKey({ type: 'text' })
  model!: string;

  @Property({ type: 'text' })
  provider!: string;

  @Property({ type: 'decimal', columnType: 'numeric(18,6)' })
  inputPrice!: string;

  @Property({ type: 'decimal', columnType: 'numeric(18,6)' })
  outputPrice!: string;

  @Property({ type: 'decimal', columnType: 'numeric(18,6)' })
  cachedInputPrice!: string;

  /** Prompt-cache writes kept 5 minutes; null: they cost the input price. */
  @Property({ type: 'decimal', columnType: 'numeric(18,6)', nullable: true, fieldName: 'cache_write_price' })
  cacheWritePrice: Opt<string> | null = null;

  /** Prompt-cache writes kept an hour; null: they cost the 5-minute write price. */
  @Property({
    type: 'decimal',
    columnType: 'numeric(18,6)',
    nullable: true,
    fieldName: 'cache_write_1h_price',
  })
  cacheWrite1hPrice: Opt<string> | null = null;

  @Property({ type: 'integer' })
  contextWindow!: number;

  /** 1–5. */
  @Property({ type: 'smallint' })
  intelligence!: number;

  /** 1–5. */
  @Property({ type: 'smallint' })
  speed!: number;

  @Property({ type: 'boolean' })
  sota: Opt<boolean> = false;

  @Property({ type: 'boolean' })
  deprecated: Opt<boolean> = false;

  /** When this version of the entry went into the outbox for billing.price; null until it has. */
  @Property({ type: 'datetime', nullable: true })
  publishedAt: Opt<Date> | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
