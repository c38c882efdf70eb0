import type { CompactedTable, EventBus } from '@tollgate/events';

/**
 * Holds back the moment a bus's compacted tables count as caught up, so a test can look at a
 * service before and after it. Everything else, the tables' contents included, is the real bus.
 */
export class CatchUpGate {
  private isOpen = false;
  private release!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  open(): void {
    this.isOpen = true;
    this.release();
  }

  wrap(bus: EventBus): EventBus {
    return {
      ensureTopics: (topics) => bus.ensureTopics(topics),
      publish: (events) => bus.publish(events),
      subscribe: (options) => bus.subscribe(options),
      table: async <T>(topic: string, decode?: (value: unknown) => T) =>
        this.gate(await bus.table(topic, decode)),
      close: () => bus.close(),
    };
  }

  private gate<T>(table: CompactedTable<T>): CompactedTable<T> {
    return {
      get: (key) => table.get(key),
      entries: () => table.entries(),
      get size() {
        return table.size;
      },
      caughtUp: async () => {
        await this.opened;
        await table.caughtUp();
      },
      isCaughtUp: () => this.isOpen && table.isCaughtUp(),
      onChange: (listener) => table.onChange(listener),
      stop: () => table.stop(),
    };
  }
}
