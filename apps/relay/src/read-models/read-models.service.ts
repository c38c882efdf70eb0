import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  billingBalanceV1,
  billingPriceV1,
  catalogChannelV1,
  identityTokenV1,
  identityUserV1,
  TOPICS,
  type BillingBalance,
  type BillingPrice,
  type CatalogChannel,
  type IdentityToken,
  type IdentityUser,
} from '@tollgate/contracts';
import { EVENT_BUS, type CompactedTable, type EventBus } from '@tollgate/events';

export interface ReadModels {
  tokens: CompactedTable<IdentityToken>;
  users: CompactedTable<IdentityUser>;
  channels: CompactedTable<CatalogChannel>;
  prices: CompactedTable<BillingPrice>;
  balances: CompactedTable<BillingBalance>;
}

export type ReadModelName = keyof ReadModels;

const TOPIC_OF: Record<ReadModelName, string> = {
  tokens: TOPICS.identityToken.name,
  users: TOPICS.identityUser.name,
  channels: TOPICS.catalogChannel.name,
  prices: TOPICS.billingPrice.name,
  balances: TOPICS.billingBalance.name,
};

/**
 * Relay keeps no database: what it needs to serve a request (keys, users, channels, prices,
 * balances) lives in memory, rebuilt from the compacted topics at start-up and kept current by them.
 */
@Injectable()
export class ReadModelsService implements OnModuleDestroy {
  private models?: ReadModels;
  private opening?: Promise<ReadModels>;

  constructor(@Inject(EVENT_BUS) private readonly bus: EventBus) {}

  /** Opens the tables once; later and concurrent callers share the same opening. */
  open(): Promise<ReadModels> {
    this.opening ??= this.openTables();
    return this.opening;
  }

  private async openTables(): Promise<ReadModels> {
    const [tokens, users, channels, prices, balances] = await Promise.all([
      this.bus.table(TOPIC_OF.tokens, (v) => identityTokenV1.parse(v)),
      this.bus.table(TOPIC_OF.users, (v) => identityUserV1.parse(v)),
      this.bus.table(TOPIC_OF.channels, (v) => catalogChannelV1.parse(v)),
      this.bus.table(TOPIC_OF.prices, (v) => billingPriceV1.parse(v)),
      this.bus.table(TOPIC_OF.balances, (v) => billingBalanceV1.parse(v)),
    ]);
    this.models = { tokens, users, channels, prices, balances };
    return this.models;
  }

  get(): ReadModels {
    if (!this.models) throw new Error('read models are not open yet');
    return this.models;
  }

  /** Per table: its topic, how many entities it holds, and whether it has caught up. */
  describe(): Record<ReadModelName, { topic: string; size: number; caught_up: boolean }> {
    const models = this.get();
    const out = {} as Record<ReadModelName, { topic: string; size: number; caught_up: boolean }>;
    for (const name of Object.keys(TOPIC_OF) as ReadModelName[]) {
      out[name] = { topic: TOPIC_OF[name], size: models[name].size, caught_up: models[name].isCaughtUp() };
    }
    return out;
  }

  isCaughtUp(): boolean {
    return !!this.models && Object.values(this.models).every((t: CompactedTable<unknown>) => t.isCaughtUp());
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.models) return;
    await Promise.all(Object.values(this.models).map((t: CompactedTable<unknown>) => t.stop()));
  }
}
