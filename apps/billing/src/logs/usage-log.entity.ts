import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { UsageRecorded } from '@tollgate/contracts';

/**
 * One settled request (usage.recorded), for reading: the usage consumer writes rows with one
 * multi-row INSERT … ON CONFLICT per batch. Never holds a prompt or a completion.
 */
@Entity({ tableName: 'usage_logs' })
export class UsageLog {
  /** The key: a redelivered event is written once (20270104-usage-log-keyed-by-event). */
  @PrimaryKey({ type: 'uuid' })
  eventId!: string;

  /** From a sequence: the log's order within one instant (its cursor is `(created_at, id)`). */
  @Property({ type: new BigIntType('number') })
  id!: number;

  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'integer', nullable: true })
  tokenId!: number | null;

  @Property({ type: 'text' })
  tokenName!: string;

  @Property({ type: 'integer', nullable: true })
  channelId!: number | null;

  @Property({ type: 'text' })
  model!: string;

  @Property({ type: 'text' })
  upstreamModel!: string;

  @Property({ type: 'integer' })
  promptTokens!: number;

  @Property({ type: 'integer' })
  completionTokens!: number;

  @Property({ type: 'integer' })
  cachedTokens!: number;

  /**
   * Prompt tokens written to the prompt cache for 5 minutes and for an hour (20270107-usage-log-cache-writes):
   * apart from each other and from the cached ones. Named by hand: the naming strategy would write
   * `cache_write5m_tokens`.
   */
  @Property({ type: 'integer', fieldName: 'cache_write_5m_tokens' })
  cacheWrite5mTokens!: number;

  @Property({ type: 'integer', fieldName: 'cache_write_1h_tokens' })
  cacheWrite1hTokens!: number;

  @Property({ type: new BigIntType('number') })
  quota!: number;

  @Property({ type: 'integer' })
  latencyMs!: number;

  @Property({ type: 'integer', nullable: true })
  ttftMs!: number | null;

  @Property({ type: 'boolean' })
  isStream!: boolean;

  @Property({ type: 'text' })
  status!: UsageRecorded['status'];

  @Property({ type: 'text', fieldName: 'group' })
  group!: string;

  @Property({ type: 'text' })
  requestId!: string;

  /** The answer's own id and why it ended (GET /v1/generation); null for calls logged before. */
  @Property({ type: 'text', nullable: true })
  responseId!: string | null;

  @Property({ type: 'text', nullable: true })
  finishReason!: string | null;
}
