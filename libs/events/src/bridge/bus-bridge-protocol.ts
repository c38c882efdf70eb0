import type { BatchingOptions, EventRecord, OutgoingEvent, TopicSpec } from '../port/event-bus.port';
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
  /** A batch of one partition for a subscription; answered by a DeliveryAnswer with the same id. */
  | { deliver: number; subscription: number; records: EventRecord[] }
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
