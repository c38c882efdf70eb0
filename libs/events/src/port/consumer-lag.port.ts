import type { EventBus } from './event-bus.port';

/** How far one consumer group is behind on one partition of a topic. */
export interface PartitionLag {
  topic: string;
  partition: number;
  /** The group's next offset to read, or null when it has committed nothing on this partition. */
  committedOffset: number | null;
  /** The offset after the partition's last record (Kafka's high watermark). */
  endOffset: number;
  /** Records the group has still to consume; counted from the partition's start without a commit. */
  lag: number;
}

/**
 * Reads a consumer group's lag. Both bus adapters implement it; it is a port of its own so that
 * wrappers of EventBus (which only forward publish and subscribe) need not know about it.
 */
export interface ConsumerLagReader {
  /** One entry per partition of `topic`, in partition order. Rejects for an unknown topic. */
  consumerLag(groupId: string, topic: string): Promise<PartitionLag[]>;
}

export function readsConsumerLag(bus: EventBus): bus is EventBus & ConsumerLagReader {
  return typeof (bus as Partial<ConsumerLagReader>).consumerLag === 'function';
}

/** The lag of a partition given its bounds and the group's committed position (if any). */
export function partitionLag(
  topic: string,
  partition: number,
  bounds: { startOffset: number; endOffset: number },
  committedOffset: number | null,
): PartitionLag {
  // Records below the start were removed by retention or compaction: they are not waiting for anyone.
  const position = Math.max(committedOffset ?? bounds.startOffset, bounds.startOffset);
  return {
    topic,
    partition,
    committedOffset,
    endOffset: bounds.endOffset,
    lag: Math.max(0, bounds.endOffset - position),
  };
}
