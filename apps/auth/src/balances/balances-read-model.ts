import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { billingBalanceV1, TOPICS, type BillingBalance } from '@tollgate/contracts';
import { EVENT_BUS, type CompactedTable, type EventBus } from '@tollgate/events';
import { HealthRegistry } from '@tollgate/platform';

/**
 * Users' balances as billing publishes them on the compacted billing.balance topic, read into
 * memory at start-up and kept current; auth is ready once it has caught up.
 */
@Injectable()
export class BalancesReadModel implements OnModuleInit, OnModuleDestroy {
  private table?: CompactedTable<BillingBalance>;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly health: HealthRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    this.table = await this.bus.table(TOPICS.billingBalance.name, (value) => billingBalanceV1.parse(value));
    this.health.registerReadinessCheck('balances', () => {
      if (!this.table?.isCaughtUp()) throw new Error('billing.balance is still being read');
    });
  }

  of(userId: number): BillingBalance | undefined {
    return this.table?.get(String(userId));
  }

  async onModuleDestroy(): Promise<void> {
    await this.table?.stop();
  }
}
