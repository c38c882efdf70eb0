import { assignPartitions, topicPartitionKey } from './assign-partitions';

const counts: Record<string, number> = { orders: 3, prices: 2 };

describe('assignPartitions', () => {
  it('gives every partition to exactly one member and splits them evenly', () => {
    const a = { id: 1, topics: ['orders'] };
    const b = { id: 2, topics: ['orders'] };
    const assignment = assignPartitions([b, a], (t) => counts[t]);
    expect([0, 1, 2].map((p) => assignment.get(topicPartitionKey('orders', p)))).toEqual([a, b, a]);
  });

  it('continues the rotation across topics', () => {
    const a = { id: 1, topics: ['orders', 'prices'] };
    const b = { id: 2, topics: ['orders', 'prices'] };
    const assignment = assignPartitions([a, b], (t) => counts[t]);
    const owners = [...assignment.values()];
    expect(owners.filter((m) => m === a)).toHaveLength(3);
    expect(owners.filter((m) => m === b)).toHaveLength(2);
  });

  it('only assigns a topic to members subscribed to it', () => {
    const a = { id: 1, topics: ['orders'] };
    const b = { id: 2, topics: ['prices'] };
    const assignment = assignPartitions([a, b], (t) => counts[t]);
    for (const [key, member] of assignment) {
      expect(member.topics).toContain(key.split('\u0000')[0]);
    }
    expect(assignment.size).toBe(5);
  });

  it('assigns nothing without members', () => {
    expect(assignPartitions([], (t) => counts[t]).size).toBe(0);
  });
});
