import { setTimeout as delay } from 'node:timers/promises';
import type { Admin } from 'kafkajs';
import { partitionLag, type PartitionLag } from '../port/consumer-lag.port';
import { backoffDelayMs } from '../shared/backoff';

/** A group's coordinator may still be loading (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS): short retries. */
const ATTEMPTS = 6;
const RETRY_BACKOFF = { initialDelayMs: 100, maxDelayMs: 1_000 };

/** The group's committed offsets against the topic's low and high watermarks. */
export async function readKafkaConsumerLag(
  admin: Admin,
  groupId: string,
  topic: string,
): Promise<PartitionLag[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(admin, groupId, topic);
    } catch (error) {
      if ((error as { retriable?: boolean }).retriable !== true || attempt >= ATTEMPTS) throw error;
      await delay(backoffDelayMs(attempt, RETRY_BACKOFF));
    }
  }
}

async function readOnce(admin: Admin, groupId: string, topic: string): Promise<PartitionLag[]> {
  // One after the other: an unknown topic fails the first call before the group is asked anything.
  const bounds = await admin.fetchTopicOffsets(topic);
  const groupOffsets = await admin.fetchOffsets({ groupId, topics: [topic] });
  const committed = new Map(
    (groupOffsets.find((entry) => entry.topic === topic)?.partitions ?? []).map((p) => [
      p.partition,
      // kafkajs answers "-1" for a partition the group has not committed on.
      Number(p.offset) >= 0 ? Number(p.offset) : null,
    ]),
  );
  return bounds
    .map((p) =>
      partitionLag(
        topic,
        p.partition,
        { startOffset: Number(p.low), endOffset: Number(p.high) },
        committed.get(p.partition) ?? null,
      ),
    )
    .sort((a, b) => a.partition - b.partition);
}
