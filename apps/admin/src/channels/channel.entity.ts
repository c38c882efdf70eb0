import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { ChannelStatus, type ChannelType } from '@tollgate/contracts';

/** An upstream account relay may route requests through. The key is only kept sealed (AES-256-GCM). */
@Entity({ tableName: 'channels' })
export class Channel {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'smallint' })
  type!: ChannelType;

  @Property({ type: 'text' })
  name!: string;

  /** SecretBox text under the channel-key purpose; relay opens it from catalog.channel. */
  @Property({ type: 'text', hidden: true })
  keyEncrypted!: string;

  /** `sk-ab…wxyz`, for lists. */
  @Property({ type: 'text' })
  keyMasked!: string;

  @Property({ type: 'text' })
  baseUrl: Opt<string> = '';

  @Property({ type: 'json' })
  models!: string[];

  @Property({ type: 'json' })
  modelMapping: Opt<Record<string, string>> = {};

  @Property({ type: 'json' })
  groups!: string[];

  @Property({ type: 'integer' })
  priority: Opt<number> = 0;

  @Property({ type: 'integer' })
  weight: Opt<number> = 0;

  @Property({ type: 'text' })
  tag: Opt<string> = '';

  @Property({ type: 'smallint' })
  status: Opt<ChannelStatus> = ChannelStatus.Enabled;

  /** Why the system disabled the channel; empty while enabled or disabled by hand. */
  @Property({ type: 'text' })
  statusReason: Opt<string> = '';

  @Property({ type: 'datetime', nullable: true })
  statusChangedAt: (Date & Opt) | null = null;

  @Property({ type: 'boolean' })
  autoBan: Opt<boolean> = true;

  @Property({ type: 'text' })
  testModel: Opt<string> = '';

  /** 0 = unlimited. */
  @Property({ type: 'integer' })
  maxConcurrency: Opt<number> = 0;

  /** new-api's per-type setting: an Azure channel's API version ('' = relay's default). */
  @Property({ type: 'text' })
  other: Opt<string> = '';

  /** Milliseconds the last test took. */
  @Property({ type: 'integer' })
  responseTime: Opt<number> = 0;

  @Property({ type: 'datetime', nullable: true })
  testedAt: (Date & Opt) | null = null;

  /** Why the last test failed (relay's message, cut short); null after a passing test or before any. */
  @Property({ type: 'text', nullable: true })
  testError: (string & Opt) | null = null;

  /** Seconds a streamed call waits for the upstream's headers; null = relay's global timeout. */
  @Property({ type: 'integer', nullable: true })
  streamHeadersTimeout: (number & Opt) | null = null;

  @Property({ type: 'bigint', runtimeType: 'number' })
  usedQuota: Opt<number> = 0;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
