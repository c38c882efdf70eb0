import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { catalogChannelModelsV1, TOPICS, type CatalogChannelModels } from '@tollgate/contracts';
import { EVENT_BUS, type CompactedTable, type EventBus } from '@tollgate/events';
import { HealthRegistry } from '@tollgate/platform';

/**
 * Which models the channels serve for which groups, as admin publishes them on the compacted
 * catalog.channel-models topic (never the channels themselves: billing holds no upstream key). Read
 * into memory at start-up and kept current; billing is ready once it has caught up.
 */
@Injectable()
export class ServedModels implements OnModuleInit, OnModuleDestroy {
  private table?: CompactedTable<CatalogChannelModels>;
  /** Answers by group list, dropped at every change of the topic: the price list is read far more often. */
  private readonly answers = new Map<string, ReadonlySet<string>>();

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly health: HealthRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    this.table = await this.bus.table(TOPICS.catalogChannelModels.name, (value) =>
      catalogChannelModelsV1.parse(value),
    );
    this.table.onChange(() => this.answers.clear());
    this.health.registerReadinessCheck('channel-models', () => {
      if (!this.table?.isCaughtUp()) throw new Error('catalog.channel-models is still being read');
    });
  }

  /**
   * The models some enabled channel serves for one of `groups`; undefined until the topic has been
   * read to its end, when a model missing from a partial read could not be told from a private one.
   */
  forGroups(groups: readonly string[]): ReadonlySet<string> | undefined {
    const table = this.table;
    if (!table?.isCaughtUp()) return undefined;
    const key = [...new Set(groups)].sort().join('\n');
    let served = this.answers.get(key);
    if (!served) {
      const models = new Set<string>();
      for (const [, channel] of table.entries()) {
        if (channel.enabled && channel.groups.some((group) => groups.includes(group))) {
          for (const model of channel.models) models.add(model);
        }
      }
      this.answers.set(key, (served = models));
    }
    return served;
  }

  async onModuleDestroy(): Promise<void> {
    await this.table?.stop();
  }
}
