import type { TopicPartitionOffset } from 'kafkajs';
import { OffsetCommits } from './offset-commits';

const at = (partition: number, offset: number, topic = 't'): TopicPartitionOffset => ({
  topic,
  partition,
  offset: String(offset),
});

function committer(intervalMs: number) {
  const commits: TopicPartitionOffset[][] = [];
  const deferredErrors: unknown[] = [];
  let fail = false;
  const offsetCommits = new OffsetCommits({
    intervalMs,
    commit: async (offsets) => {
      if (fail) throw new Error('rebalancing');
      commits.push(offsets);
    },
    onDeferredError: (error) => deferredErrors.push(error),
  });
  return { offsetCommits, commits, deferredErrors, failNext: () => (fail = true) };
}

describe('OffsetCommits', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('commits a lone offset at once, and resolves only once it is committed', async () => {
    const { offsetCommits, commits } = committer(1000);
    await offsetCommits.add(at(0, 5));
    expect(commits).toEqual([[at(0, 5)]]);
  });

  it('lets the offsets added within the interval share one commit, the latest of each partition', async () => {
    const { offsetCommits, commits } = committer(1000);
    await offsetCommits.add(at(0, 5));
    await offsetCommits.add(at(0, 7));
    await offsetCommits.add(at(1, 3));
    await offsetCommits.add(at(0, 9));
    expect(commits).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(commits).toEqual([[at(0, 5)], [at(0, 9), at(1, 3)]]);
  });

  it('commits every offset at once with no interval', async () => {
    const { offsetCommits, commits } = committer(0);
    await offsetCommits.add(at(0, 5));
    await offsetCommits.add(at(0, 6));
    expect(commits).toEqual([[at(0, 5)], [at(0, 6)]]);
  });

  it('commits what waits on close, and every offset at once after it', async () => {
    const { offsetCommits, commits } = committer(1000);
    await offsetCommits.add(at(0, 5));
    await offsetCommits.add(at(0, 6));
    await offsetCommits.close();
    await offsetCommits.add(at(0, 7));
    expect(commits).toEqual([[at(0, 5)], [at(0, 6)], [at(0, 7)]]);
  });

  it('drops what waits for partitions no longer held', async () => {
    const { offsetCommits, commits } = committer(1000);
    await offsetCommits.add(at(0, 5));
    await offsetCommits.add(at(1, 8));
    await offsetCommits.add(at(2, 4));
    offsetCommits.retain((_topic, partition) => partition !== 1);
    await offsetCommits.close();
    expect(commits).toEqual([[at(0, 5)], [at(2, 4)]]);
  });

  it('reports a deferred commit that failed, and still commits the next one', async () => {
    const { offsetCommits, commits, deferredErrors, failNext } = committer(1000);
    await offsetCommits.add(at(0, 5));
    await offsetCommits.add(at(0, 6));
    failNext();
    await jest.advanceTimersByTimeAsync(1000);
    expect(deferredErrors).toEqual([new Error('rebalancing')]);
    expect(commits).toEqual([[at(0, 5)]]);
  });

  it('keeps commits in order: one begins only after the one before it settled', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const offsetCommits = new OffsetCommits({
      intervalMs: 0,
      commit: async (offsets) => {
        order.push(`start ${offsets[0].offset}`);
        if (offsets[0].offset === '1') await new Promise<void>((resolve) => (release = resolve));
        order.push(`end ${offsets[0].offset}`);
      },
      onDeferredError: () => undefined,
    });
    const first = offsetCommits.add(at(0, 1));
    const second = offsetCommits.add(at(0, 2));
    while (order.length === 0) await Promise.resolve();
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });
});
