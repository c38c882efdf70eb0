import type { PartitionMetadata } from 'kafkajs';

/** kafkajs's metadata of a topic's `partitions` partitions, each led by broker 0 unless `leaderOf` says otherwise. */
export function partitionMetadata(
  partitions: number,
  leaderOf: (partitionId: number) => number = () => 0,
): PartitionMetadata[] {
  return Array.from({ length: partitions }, (_, partitionId) => ({
    partitionId,
    leader: leaderOf(partitionId),
    replicas: [0],
    isr: [0],
    partitionErrorCode: 0,
    offlineReplicas: [],
  }));
}
