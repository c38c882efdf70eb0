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
        waitForLeaders: true,
        topics: missing.map((spec) => ({
          topic: spec.name,
          numPartitions: spec.partitions ?? this.defaultPartitions,
          replicationFactor,
          configEntries: spec.compacted ? [{ name: 'cleanup.policy', value: 'compact' }] : [],
        })),
      });
    }
    wanted.forEach((spec) => this.known.add(spec.name));
  }

  /** Three copies where the cluster has three brokers, fewer on a smaller one. */
  private async defaultReplicationFactor(admin: Admin): Promise<number> {
    const { brokers } = await admin.describeCluster();
    return Math.min(3, brokers.length);
  }
}
