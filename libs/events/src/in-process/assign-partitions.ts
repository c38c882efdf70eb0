export interface AssignableMember {
  /** Join order: lower ids come first, which keeps assignments stable across rebalances. */
  readonly id: number;
  readonly topics: readonly string[];
}

export function topicPartitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/**
 * Round-robin over every (topic, partition) of the group, among the members subscribed to that
 * topic, continuing the rotation across topics so that small topics do not all land on the
 * first member. Returns topic-partition key → member.
 */
export function assignPartitions<M extends AssignableMember>(
  members: readonly M[],
  partitionCount: (topic: string) => number,
): Map<string, M> {
  const ordered = [...members].sort((a, b) => a.id - b.id);
  const topics = [...new Set(ordered.flatMap((member) => member.topics))].sort();
  const assignment = new Map<string, M>();
  let cursor = 0;
  for (const topic of topics) {
    const subscribers = ordered.filter((member) => member.topics.includes(topic));
    for (let partition = 0; partition < partitionCount(topic); partition++) {
      assignment.set(topicPartitionKey(topic, partition), subscribers[cursor++ % subscribers.length]);
    }
  }
  return assignment;
}
