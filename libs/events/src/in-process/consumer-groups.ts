import type { BatchingOptions, EventRecord, OutgoingEvent } from '../port/event-bus.port';
import type { DeliveryPolicy } from '../shared/deliver-batch';
import type { EventBusLogger } from '../shared/logger';
import { assignPartitions, topicPartitionKey } from './assign-partitions';
import type { CommittedOffsets } from './committed-offsets';
import type { PartitionLog } from './partition-log';
import { PartitionWorker } from './partition-worker';

export interface GroupMember {
  readonly id: number;
  readonly groupId: string;
  readonly topics: readonly string[];
  readonly fromBeginning: boolean;
  readonly handler: (batch: EventRecord[]) => Promise<void>;
  readonly decode?: (value: unknown) => unknown;
  readonly policy: DeliveryPolicy;
  readonly batching?: BatchingOptions | undefined;
  /** Values handed over as the JSON text the log holds, not parsed (`subscribeEncoded`). */
  readonly encoded?: boolean;
}

export interface GroupDependencies {
  partitions: (topic: string) => readonly PartitionLog[];
  offsets: CommittedOffsets;
  publishDeadLetter: (event: OutgoingEvent) => Promise<void>;
  logger: EventBusLogger;
}

interface GroupState {
  members: GroupMember[];
  /** Topic-partition key → the worker consuming it for this group. */
  workers: Map<string, PartitionWorker>;
}

/** Kafka-style consumer groups inside one process: join, leave, rebalance, one owner per partition. */
export class ConsumerGroups {
  private readonly groups = new Map<string, GroupState>();

  constructor(private readonly deps: GroupDependencies) {}

  async join(member: GroupMember): Promise<void> {
    await this.commitStartingOffsets(member);
    let group = this.groups.get(member.groupId);
    if (!group) this.groups.set(member.groupId, (group = { members: [], workers: new Map() }));
    group.members.push(member);
    this.rebalance(group);
  }

  async leave(member: GroupMember): Promise<void> {
    const group = this.groups.get(member.groupId);
    if (!group || !group.members.includes(member)) return;
    group.members = group.members.filter((other) => other !== member);
    const stopped = this.rebalance(group);
    if (group.members.length === 0) this.groups.delete(member.groupId);
    await Promise.all(stopped);
  }

  /**
   * A partition the group has never committed on starts at the log start or end, as the member
   * asks. Committing that position at once also holds back retention for the group.
   */
  private async commitStartingOffsets(member: GroupMember): Promise<void> {
    const commits: Array<Promise<void>> = [];
    for (const topic of member.topics) {
      for (const log of this.deps.partitions(topic)) {
        if (this.deps.offsets.get(member.groupId, topic, log.partition) !== undefined) continue;
        const offset = member.fromBeginning ? log.startOffset : log.endOffset;
        commits.push(
          this.deps.offsets.commit({ groupId: member.groupId, topic, partition: log.partition, offset }),
        );
      }
    }
    await Promise.all(commits);
  }

  /** Moves partitions to their new owners; returns the stopping workers' completions. */
  private rebalance(group: GroupState): Array<Promise<void>> {
    const assignment = assignPartitions(group.members, (topic) => this.deps.partitions(topic).length);
    const stopped = new Map<string, Promise<void>>();
    for (const [key, worker] of group.workers) {
      if (assignment.get(key)?.id !== worker.memberId) {
        stopped.set(key, worker.stop());
        group.workers.delete(key);
      }
    }
    for (const member of group.members) {
      for (const topic of member.topics) {
        for (const log of this.deps.partitions(topic)) {
          const key = topicPartitionKey(topic, log.partition);
          if (assignment.get(key) !== member || group.workers.has(key)) continue;
          const settings = {
            groupId: member.groupId,
            handler: member.handler,
            decode: member.decode,
            policy: member.policy,
            batching: member.batching,
            encoded: member.encoded ?? false,
            offsets: this.deps.offsets,
            publishDeadLetter: this.deps.publishDeadLetter,
            logger: this.deps.logger,
          };
          group.workers.set(
            key,
            new PartitionWorker(member.id, log, settings, stopped.get(key) ?? Promise.resolve()),
          );
        }
      }
    }
    return [...stopped.values()];
  }
}
