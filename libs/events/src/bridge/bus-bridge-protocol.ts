import type {
  BatchingOptions,
  EventBus,
  EventRecord,
  OutgoingEvent,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from '../port/event-bus.port';
import type { PartitionLag } from '../port/consumer-lag.port';
import type { WireError } from './port-messages';

/** What a subscription sends to the thread that owns the bus: the data of SubscribeOptions, no function. */
export interface RemoteSubscription {
  groupId: string;
  topics: string[];
  fromBeginning?: boolean;
  batching?: BatchingOptions;
}

/** Bridged bus → owning thread. Every request is answered by a `Reply` with its id. */
export type BusRequest =
  | { id: number; op: 'ensureTopics'; topics: TopicSpec[] }
  | { id: number; op: 'publish'; events: OutgoingEvent[] }
  | { id: number; op: 'subscribe'; subscription: number; options: RemoteSubscription }
  | { id: number; op: 'unsubscribe'; subscription: number }
  | { id: number; op: 'table'; table: number; topic: string }
  | { id: number; op: 'untable'; table: number }
  | { id: number; op: 'consumerLag'; groupId: string; topic: string };

/** A batch's fate on the bridged side: handled or dead-lettered (commit it), or not (redeliver it). */
export type DeliveryAnswer =
  { delivered: number; outcome: 'done' | 'stopped' } | { delivered: number; error: WireError };

export type BridgeToOwner = BusRequest | DeliveryAnswer;

export type Reply = { reply: number; value?: unknown } | { reply: number; error: WireError };

/** Owning thread → bridged bus. */
export type OwnerToBridge =
  | Reply
  /**
   * A batch of one partition for a subscription; answered by a DeliveryAnswer with the same id.
   * `encoded`: each value is the JSON text the owner's log holds (null for a tombstone), to be parsed here.
   */
  | { deliver: number; subscription: number; records: EventRecord[]; encoded?: true }
  /** A compacted table's change (null: the key was deleted). */
  | { table: number; key: string; value: unknown }
  | { table: number; caughtUp: true }
  | { table: number; failed: WireError };

/** The answer to a `table` request: the rows read so far, and whether that is all of them. */
export interface TableSnapshot {
  rows: [string, unknown][];
  caughtUp: boolean;
}

export type ConsumerLagAnswer = PartitionLag[];

/**
 * What the owner's bus may offer besides `EventBus` (InProcessEventBus does): a subscription whose
 * records carry their values as JSON text, which the host passes on without parsing or copying them.
 */
export interface EncodedSubscriber {
  subscribeEncoded(options: Omit<SubscribeOptions<string | null>, 'decode'>): Promise<Subscription>;
}

export function subscribesEncoded(bus: EventBus): bus is EventBus & EncodedSubscriber {
  return typeof (bus as Partial<EncodedSubscriber>).subscribeEncoded === 'function';
}
