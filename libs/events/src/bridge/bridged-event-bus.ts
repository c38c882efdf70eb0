import type { MessagePort } from 'node:worker_threads';
import type { ConsumerLagReader, PartitionLag } from '../port/consumer-lag.port';
import type {
  CompactedTable,
  EventBus,
  EventRecord,
  OutgoingEvent,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from '../port/event-bus.port';
import { sleep } from '../shared/backoff';
import { deadLetterEvent } from '../shared/dead-letter';
import { decodeRecord, deliverRecords, type DeliveryPolicy } from '../shared/deliver-batch';
import { errorMessage, silentEventBusLogger, type EventBusLogger } from '../shared/logger';
import { TableView } from '../shared/table-view';
import { assertValidEvent, assertValidSubscription, deliveryPolicy } from '../shared/validate-events';
import type { BridgeToOwner, BusRequest, OwnerToBridge, TableSnapshot } from './bus-bridge-protocol';
import { fromWireError, PortMessages, toWireError } from './port-messages';

export interface BridgedEventBusOptions {
  logger?: EventBusLogger;
}

/** What `BusRequest` is without its id, distributed over the union. */
type Request = BusRequest extends infer R ? (R extends BusRequest ? Omit<R, 'id'> : never) : never;

interface Member {
  groupId: string;
  topics: readonly string[];
  handler: (batch: EventRecord[]) => Promise<void>;
  decode: ((value: unknown) => unknown) | undefined;
  policy: DeliveryPolicy;
  /** Aborted when the subscription stops: waits end, no new handler call starts. */
  stopping: AbortController;
}

/**
 * The event bus of a thread that does not own the platform's bus: every operation is a message to
 * the thread that does (`serveEventBus`), over `port`. Publishes resolve once that bus accepted
 * them. A subscription's records come from a member of that bus's group; here they are decoded,
 * handed to the handler with the usual retry and dead-letter policy (`deliverRecords`, as every
 * adapter), and only when that is done does the owner commit them: at least once, as on Kafka.
 * Messages of one turn of the event loop travel together (`PortMessages`).
 */
export class BridgedEventBus implements EventBus, ConsumerLagReader {
  private readonly messages: PortMessages<BridgeToOwner, OwnerToBridge>;
  private readonly logger: EventBusLogger;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  private readonly members = new Map<number, Member>();
  private readonly tables = new Map<number, TableView<unknown>>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly sharedValues = new SharedValues();
  private nextId = 1;
  private closed = false;

  constructor(port: MessagePort, options: BridgedEventBusOptions = {}) {
    this.logger = options.logger ?? silentEventBusLogger;
    this.messages = new PortMessages<BridgeToOwner, OwnerToBridge>(port, (message: OwnerToBridge) =>
      this.receive(message),
    );
    port.once('close', () => this.failPending(new Error('the event bus bridge closed')));
  }

  async ensureTopics(topics: TopicSpec[]): Promise<void> {
    await this.request({ op: 'ensureTopics', topics });
  }

  async publish(events: OutgoingEvent[]): Promise<void> {
    events.forEach(assertValidEvent);
    await this.request({ op: 'publish', events });
  }

  async subscribe<T = unknown>(options: SubscribeOptions<T>): Promise<Subscription> {
    assertValidSubscription(options as SubscribeOptions<unknown>);
    const id = this.nextId++;
    const member: Member = {
      groupId: options.groupId,
      topics: options.topics,
      handler: options.handler as Member['handler'],
      decode: options.decode,
      policy: deliveryPolicy(options as SubscribeOptions<unknown>),
      stopping: new AbortController(),
    };
    this.members.set(id, member);
    try {
      await this.request({
        op: 'subscribe',
        subscription: id,
        options: {
          groupId: options.groupId,
          topics: options.topics,
          ...(options.fromBeginning !== undefined && { fromBeginning: options.fromBeginning }),
          ...(options.batching && { batching: options.batching }),
        },
      });
    } catch (error) {
      this.members.delete(id);
      throw error;
    }
    let stopped: Promise<void> | undefined;
    const subscription: Subscription = {
      stop: () =>
        (stopped ??= (async () => {
          member.stopping.abort();
          // The owner lets a batch in flight finish (its answer is still sent) and commits it.
          await this.request({ op: 'unsubscribe', subscription: id }).catch(() => undefined);
          this.members.delete(id);
          this.subscriptions.delete(subscription);
        })()),
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async table<T>(topic: string, decode?: (value: unknown) => T): Promise<CompactedTable<T>> {
    const id = this.nextId++;
    const view = new TableView<T>(topic, decode, this.logger, async () => {
      this.tables.delete(id);
      await this.request({ op: 'untable', table: id }).catch(() => undefined);
    });
    this.tables.set(id, view as TableView<unknown>);
    let snapshot: TableSnapshot;
    try {
      snapshot = (await this.request({ op: 'table', table: id, topic })) as TableSnapshot;
    } catch (error) {
      this.tables.delete(id);
      throw error;
    }
    for (const [key, value] of snapshot.rows) view.apply(key, value);
    if (snapshot.caughtUp) view.markCaughtUp();
    return view;
  }

  async consumerLag(groupId: string, topic: string): Promise<PartitionLag[]> {
    return (await this.request({ op: 'consumerLag', groupId, topic })) as PartitionLag[];
  }

  /** Stops this thread's subscriptions and tables and closes the port; the owner's bus stays open. */
  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await Promise.all([...this.tables.values()].map((table) => table.stop()));
    this.closed = true;
    this.messages.close();
    this.failPending(new Error('the event bus bridge is closed'));
  }

  private request(request: Request): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the event bus bridge is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.messages.send({ ...request, id } as BusRequest);
    });
  }

  private failPending(error: Error): void {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  private receive(message: OwnerToBridge): void {
    if ('reply' in message) {
      const pending = this.pending.get(message.reply);
      if (!pending) return;
      this.pending.delete(message.reply);
      if ('error' in message) pending.reject(fromWireError(message.error));
      else pending.resolve(message.value);
    } else if ('deliver' in message) {
      const records = message.encoded
        ? this.parseValues(message.subscription, message.records)
        : message.records;
      void this.deliver(message.deliver, message.subscription, records);
    } else {
      const view = this.tables.get(message.table);
      if (!view) return;
      if ('key' in message) view.apply(message.key, message.value);
      else if ('caughtUp' in message) view.markCaughtUp();
      else view.fail(fromWireError(message.failed));
    }
  }

  /**
   * Each value as the JSON text it came as, parsed. A subscription that decodes its records takes a
   * value that other decoding groups of this thread read too from `sharedValues`, parsed once for them
   * all; otherwise it parses its own (a handler without a decoder gets the value itself, and may change it).
   */
  private parseValues(subscription: number, records: EventRecord[]): EventRecord[] {
    const member = this.members.get(subscription);
    const readers = member?.decode && records.length > 0 ? this.decodingGroupsOf(records[0].topic) : 0;
    return records.map((record) => {
      if (typeof record.value !== 'string') return record;
      const value = readers > 1 ? this.sharedValues.take(record, readers) : JSON.parse(record.value);
      return { ...record, value };
    });
  }

  /** How many groups of this thread decode the records of `topic`: how many will read each one. */
  private decodingGroupsOf(topic: string): number {
    const groups = new Set<string>();
    for (const member of this.members.values()) {
      if (member.decode && member.topics.includes(topic)) groups.add(member.groupId);
    }
    return groups.size;
  }

  private async deliver(delivery: number, subscription: number, records: EventRecord[]): Promise<void> {
    const member = this.members.get(subscription);
    const answer = (outcome: 'done' | 'stopped') => this.messages.send({ delivered: delivery, outcome });
    if (!member || member.stopping.signal.aborted) return answer('stopped');
    const { signal } = member.stopping;
    try {
      const outcome = await deliverRecords(
        records.map((record) => decodeRecord(record, member.decode)),
        member.policy,
        {
          handler: member.handler,
          // The owner commits the batch once this answers: a batch cut short is offered again whole.
          commit: async () => undefined,
          deadLetter: (record, error, attempts) => this.deadLetter(member, record, error, attempts),
          wait: (ms) => sleep(ms, signal),
          isActive: () => !signal.aborted,
          onRetry: (error, attempt, delayMs) =>
            this.logger.warn('event handler failed; retrying', {
              groupId: member.groupId,
              topic: records[0]?.topic,
              partition: records[0]?.partition,
              attempt,
              delayMs,
              error: errorMessage(error),
            }),
        },
      );
      answer(outcome);
    } catch (error) {
      this.messages.send({ delivered: delivery, error: toWireError(error) });
    }
  }

  private async deadLetter(
    member: Member,
    record: EventRecord,
    error: unknown,
    attempts: number,
  ): Promise<void> {
    await this.publish([deadLetterEvent(record, member.groupId, error, attempts)]);
    this.logger.warn('event dead-lettered', {
      groupId: member.groupId,
      topic: record.topic,
      partition: record.partition,
      offset: record.offset,
      error: errorMessage(error),
    });
  }
}

/**
 * A record's value parsed once for the several groups of this thread that decode it (in embedded
 * mode auth's, billing's and admin's usage.recorded consumers: two parses of each call's record
 * saved). The value is deeply frozen before any decoder sees it: no decoder and no group can change
 * what another reads. Decoders build their own values (zod's object schemas do), so a handler still
 * gets a value it may change. An entry goes once every group has taken it; the groups batch on their
 * own timers, so it may wait a while, and the oldest go past `capacity` (a group that stopped, or
 * lags far behind, parses for itself).
 */
class SharedValues {
  private readonly entries = new Map<string, { value: unknown; readersLeft: number }>();

  constructor(private readonly capacity = 4096) {}

  take(record: EventRecord, readers: number): unknown {
    const key = `${record.topic}\u0000${record.partition}\u0000${record.offset}`;
    const entry = this.entries.get(key);
    if (entry) {
      if (--entry.readersLeft <= 0) this.entries.delete(key);
      return entry.value;
    }
    const value = deepFreeze(JSON.parse(record.value as string));
    this.entries.set(key, { value, readersLeft: readers - 1 });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
