import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { TOKEN_NEVER_EXPIRES, TokenStatus } from '@tollgate/contracts';

/** A user's API key. The key itself is only kept encrypted; lookups go by its HMAC. */
@Entity({ tableName: 'tokens' })
export class Token {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Index()
  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'text' })
  name!: string;

  /** HMAC-SHA256 (hex) of the key. */
  @Property({ type: 'text', unique: true })
  keyHash!: string;

  /** AES-256-GCM of the key, for the owner's "copy key". */
  @Property({ type: 'text', hidden: true })
  keyEncrypted!: string;

  /** `sk-abcd…wxyz`, for lists. */
  @Property({ type: 'text' })
  keyMasked!: string;

  @Property({ type: 'smallint' })
  status: Opt<TokenStatus> = TokenStatus.Enabled;

  /** Unix seconds, or -1 for never. */
  @Property({ type: 'bigint', runtimeType: 'number' })
  expiredTime: Opt<number> = TOKEN_NEVER_EXPIRES;

  @Property({ type: 'bigint', runtimeType: 'number' })
  remainQuota: Opt<number> = 0;

  @Property({ type: 'boolean' })
  unlimitedQuota: Opt<boolean> = false;

  @Property({ type: 'bigint', runtimeType: 'number' })
  usedQuota: Opt<number> = 0;

  @Property({ type: 'boolean' })
  modelLimitsEnabled: Opt<boolean> = false;

  @Property({ type: 'json' })
  modelLimits: Opt<string[]> = [];

  @Property({ type: 'json' })
  allowIps: Opt<string[]> = [];

  /** The group the key bills in; empty means the owner's group. */
  @Property({ type: 'text', fieldName: 'group' })
  group: Opt<string> = '';

  /** The key's own rate limits; 0 = its group's (GroupRateLimits). */
  @Property({ type: 'integer' })
  rpmLimit: Opt<number> = 0;

  @Property({ type: 'integer' })
  tpmLimit: Opt<number> = 0;

  @Property({ type: 'integer' })
  concurrencyLimit: Opt<number> = 0;

  /** Model name a client asks for → the model served. */
  @Property({ type: 'json' })
  modelAliases: Opt<Record<string, string>> = {};

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();

  /** Last use through relay; null until the key is used. */
  @Property({ type: 'datetime', nullable: true })
  accessedAt: (Date & Opt) | null = null;
}
