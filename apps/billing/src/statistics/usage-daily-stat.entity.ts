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

  /** Prompt tokens read from the prompt cache (part of promptTokens). */
  @Property({ type: new BigIntType('number') })
  cachedTokens!: number;

  /**
   * Prompt tokens written to the prompt cache for 5 minutes and for an hour (part of promptTokens,
   * apart from cachedTokens and from each other; 20270108-daily-stat-cache-writes).
   */
  @Property({ type: new BigIntType('number'), fieldName: 'cache_write_5m_tokens' })
  cacheWrite5mTokens!: number;

  @Property({ type: new BigIntType('number'), fieldName: 'cache_write_1h_tokens' })
  cacheWrite1hTokens!: number;

  @Property({ type: new BigIntType('number') })
  quota!: number;
}
