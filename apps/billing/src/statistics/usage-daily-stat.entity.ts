import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One user's usage of one model through one token on one Moscow day, kept by the usage consumer in
 * the transaction that writes the usage rows, so it survives the retention of usage_logs.
 */
@Entity({ tableName: 'usage_daily_stats' })
export class UsageDailyStat {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  userId!: number;

  /** YYYY-MM-DD in Moscow time. */
  @PrimaryKey({ type: 'date' })
  day!: string;

  @PrimaryKey({ type: 'text' })
  model!: string;

  /** 0 when the requests used no token (session calls). */
  @PrimaryKey({ type: 'integer', autoincrement: false })
  tokenId!: number;

  @Property({ type: new BigIntType('number') })
  requests!: number;

  @Property({ type: new BigIntType('number') })
  promptTokens!: number;

  @Property({ type: new BigIntType('number') })
  completionTokens!: number;

  @Property({ type: new BigIntType('number') })
  cachedTokens!: number;

  @Property({ type: new BigIntType('number') })
  quota!: number;
}
