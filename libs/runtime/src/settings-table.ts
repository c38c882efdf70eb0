import { catalogOptionV1, TOPICS, type CatalogOption } from '@tollgate/contracts';
import type { CompactedTable, EventBus } from '@tollgate/events';

/**
 * The operators' settings (catalog.option) in memory, kept current from the compacted topic: what a
 * service reads on every use instead of its configuration once an operator set the option.
 */
export class SettingsTable {
  private constructor(private readonly table: CompactedTable<CatalogOption>) {}

  static async open(bus: EventBus): Promise<SettingsTable> {
    return new SettingsTable(
      await bus.table(TOPICS.catalogOption.name, (value) => catalogOptionV1.parse(value)),
    );
  }

  /** The option's value, or undefined when no operator set it. */
  get(key: string): string | undefined {
    return this.table.get(key)?.value;
  }

  /** Calls `listener` with the key of every option set or cleared from now on; returns the unsubscribe. */
  onChange(listener: (key: string) => void): () => void {
    return this.table.onChange((key) => listener(key));
  }

  isCaughtUp(): boolean {
    return this.table.isCaughtUp();
  }

  stop(): Promise<void> {
    return this.table.stop();
  }
}
