import type { CompactedTable } from '../port/event-bus.port';
import { errorMessage, type EventBusLogger } from './logger';

type ChangeListener<T> = (key: string, value: T | undefined) => void;

/** The in-memory side of a compacted table; an adapter feeds it records and progress. */
export class TableView<T> implements CompactedTable<T> {
  private readonly rows = new Map<string, T>();
  private readonly listeners = new Set<ChangeListener<T>>();
  private caughtUpFlag = false;
  private stopped = false;
  private readonly caughtUpPromise: Promise<void>;
  private resolveCaughtUp!: () => void;
  private rejectCaughtUp!: (error: unknown) => void;

  constructor(
    readonly topic: string,
    private readonly decode: ((value: unknown) => T) | undefined,
    private readonly logger: EventBusLogger,
    private readonly detach: (view: TableView<T>) => Promise<void>,
  ) {
    this.caughtUpPromise = new Promise<void>((resolve, reject) => {
      this.resolveCaughtUp = resolve;
      this.rejectCaughtUp = reject;
    });
    // A table whose reader fails is reported through caughtUp(); nobody may be awaiting it yet.
    this.caughtUpPromise.catch(() => undefined);
  }

  get size(): number {
    return this.rows.size;
  }

  get(key: string): T | undefined {
    return this.rows.get(key);
  }

  entries(): IterableIterator<[string, T]> {
    return this.rows.entries();
  }

  caughtUp(): Promise<void> {
    return this.caughtUpPromise;
  }

  isCaughtUp(): boolean {
    return this.caughtUpFlag;
  }

  onChange(listener: ChangeListener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.listeners.clear();
    this.rejectCaughtUp(new Error(`table ${this.topic} stopped before it caught up`));
    await this.detach(this);
  }

  /** Applies one record: a value replaces the key's row, `null` (tombstone) deletes it. */
  apply(key: string, value: unknown): void {
    if (this.stopped) return;
    if (value === null) {
      if (this.rows.delete(key)) this.notify(key, undefined);
      return;
    }
    let decoded: T;
    try {
      decoded = this.decode ? this.decode(value) : (value as T);
    } catch (error) {
      this.logger.error('table dropped a key whose value could not be decoded', {
        topic: this.topic,
        key,
        error: errorMessage(error),
      });
      if (this.rows.delete(key)) this.notify(key, undefined);
      return;
    }
    this.rows.set(key, decoded);
    this.notify(key, decoded);
  }

  markCaughtUp(): void {
    if (this.caughtUpFlag || this.stopped) return;
    this.caughtUpFlag = true;
    this.resolveCaughtUp();
  }

  fail(error: unknown): void {
    this.rejectCaughtUp(error);
  }

  private notify(key: string, value: T | undefined): void {
    for (const listener of this.listeners) {
      try {
        listener(key, value);
      } catch (error) {
        this.logger.error('table change listener threw', {
          topic: this.topic,
          key,
          error: errorMessage(error),
        });
      }
    }
  }
}
