import type { Admin } from 'kafkajs';
import type { TopicSpec } from '../port/event-bus.port';
import { assertValidTopicName } from '../shared/topic-name';

/** Topic creation through the admin client: idempotent, compacted topics get cleanup.policy=compact. */
export class KafkaTopics {
  private readonly known = new Set<string>();

  constructor(
    private readonly admin: () => Promise<Admin>,
    private readonly defaultPartitions: number,
    private readonly replicationFactor: number | undefined,
  ) {}

  async ensure(specs: TopicSpec[]): Promise<void> {
    specs.forEach((spec) => assertValidTopicName(spec.name));
    const wanted = specs.filter((spec) => !this.known.has(spec.name));
    if (wanted.length === 0) return;
    const admin = await this.admin();
    const existing = new Set(await admin.listTopics());
    const missing = wanted.filter((spec) => !existing.has(spec.name));
    if (missing.length > 0) {
      const replicationFactor = this.replicationFactor ?? (await this.defaultReplicationFactor(admin));
      // Another process may create the same topics at the same time; kafkajs treats "already exists" as done.
      await admin.createTopics({
        // kafkajs's own wait gives up on UNKNOWN_TOPIC_OR_PARTITION, which a KRaft broker answers for
        // a moment after creating a topic: waitForLeaders below tolerates it.
        waitForLeaders: false,
        topics: missing.map((spec) => ({
          topic: spec.name,
          numPartitions: spec.partitions ?? this.defaultPartitions,
          replicationFactor,
          configEntries: spec.compacted ? [{ name: 'cleanup.policy', value: 'compact' }] : [],
        })),
      });
      await waitForLeaders(
        admin,
        missing.map((spec) => spec.name),
      );
    }
    wanted.forEach((spec) => this.known.add(spec.name));
  }

  /** Three copies where the cluster has three brokers, fewer on a smaller one. */
  private async defaultReplicationFactor(admin: Admin): Promise<number> {
    const { brokers } = await admin.describeCluster();
    return Math.min(3, brokers.length);
  }
}

const LEADER_WAIT_MS = 30_000;

/** Until every partition of the topics has a leader, so the first produce or offset read succeeds. */
async function waitForLeaders(admin: Admin, topics: string[]): Promise<void> {
  const deadline = Date.now() + LEADER_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      const { topics: described } = await admin.fetchTopicMetadata({ topics });
      const ready =
        described.length === topics.length &&
        described.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      if (ready) return;
    } catch (error) {
      if ((error as { retriable?: boolean }).retriable !== true) throw error;
    }
    if (Date.now() > deadline)
      throw new Error(`topics ${topics.join(', ')} have no partition leaders after ${LEADER_WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 50 * attempt)));
  }
}
