import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** A currency pair's rates: the bank's last one and an admin override. NUMERIC, read as decimal strings. */
@Entity({ tableName: 'exchange_rates' })
export class ExchangeRateRecord {
  /** `USD_RUB`. */
  @PrimaryKey({ type: 'text' })
  pair!: string;

  @Property({ type: 'decimal', columnType: 'numeric(18,6)', nullable: true })
  bankRate: string | null = null;

  /** The date the bank set the rate for, as it wrote it (`22.11.2026`). */
  @Property({ type: 'text', nullable: true })
  bankRateDate: string | null = null;

  /** Last successful fetch. */
  @Property({ type: 'datetime', nullable: true })
  bankFetchedAt: Date | null = null;

  /** Last failed fetch. */
  @Property({ type: 'datetime', nullable: true })
  bankFailedAt: Date | null = null;

  @Property({ type: 'decimal', columnType: 'numeric(18,6)', nullable: true })
  overrideRate: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  overrideSetAt: Date | null = null;

  @Property({ type: 'integer', nullable: true })
  overrideSetBy: number | null = null;

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}

export const USD_RUB = 'USD_RUB';
