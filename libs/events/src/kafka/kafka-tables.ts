import type { CompactedTable } from '../port/event-bus.port';
import type { EventBusLogger } from '../shared/logger';
import { TableView } from '../shared/table-view';
import { KafkaTableReader, type TableReaderDependencies } from './kafka-table-reader';

/**
 * Hands out compacted tables. Tables asked for in the same tick (including a series of
 * `await bus.table(...)` calls, which resolve at once) share one reader and one group join.
 */
export class KafkaTables {
  private forming: KafkaTableReader | undefined;
  private readonly readers = new Set<KafkaTableReader>();

  constructor(
    private readonly deps: TableReaderDependencies,
    private readonly logger: EventBusLogger,
  ) {}

  open<T>(topic: string, decode?: (value: unknown) => T): CompactedTable<T> {
    const reader = this.forming ?? this.formReader();
    const view = new TableView<T>(topic, decode, this.logger, async (detached) => {
      if (await reader.detach(detached as TableView<unknown>)) this.readers.delete(reader);
    });
    reader.add(view as TableView<unknown>);
    return view;
  }

  async close(): Promise<void> {
    this.forming = undefined;
    const readers = [...this.readers];
    this.readers.clear();
    await Promise.all(readers.map((reader) => reader.stop()));
  }

  private formReader(): KafkaTableReader {
    const reader = new KafkaTableReader(this.deps);
    this.forming = reader;
    this.readers.add(reader);
    setImmediate(() => {
      if (this.forming === reader) this.forming = undefined;
      if (!this.readers.has(reader)) return;
      void reader.start();
    });
    return reader;
  }
}
