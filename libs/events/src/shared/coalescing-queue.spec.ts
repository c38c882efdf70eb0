import { CoalescingQueue } from './coalescing-queue';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('CoalescingQueue', () => {
  it('coalesces pushes made together into one flush, in push order', async () => {
    const flushes: number[][] = [];
    const queue = new CoalescingQueue<number>({ flush: async (items) => void flushes.push(items) });
    await Promise.all([queue.push([1]), queue.push([2, 3]), queue.push([4])]);
    expect(flushes).toEqual([[1, 2, 3, 4]]);
  });

  it('hands every push of one flush the same promise and leaves the pushed arrays as they were', async () => {
    const flushes: number[][] = [];
    const queue = new CoalescingQueue<number>({ flush: async (items) => void flushes.push(items) });
    const first = [1];
    const pushes = [queue.push(first), queue.push([2, 3])];
    expect(pushes[1]).toBe(pushes[0]);
    await Promise.all(pushes);
    expect(first).toEqual([1]);
    expect(flushes).toEqual([[1, 2, 3]]);
    expect(queue.push([4])).not.toBe(pushes[0]);
  });

  it('keeps one flush in flight and gathers what arrives meanwhile into the next', async () => {
    const flushes: number[][] = [];
    const gate = deferred();
    const queue = new CoalescingQueue<number>({
      flush: async (items) => {
        flushes.push(items);
        if (flushes.length === 1) await gate.promise;
      },
    });
    const first = queue.push([1]);
    await new Promise((r) => setTimeout(r, 5));
    const later = [queue.push([2]), queue.push([3])];
    await new Promise((r) => setTimeout(r, 5));
    expect(flushes).toEqual([[1]]);
    gate.resolve();
    await Promise.all([first, ...later]);
    expect(flushes).toEqual([[1], [2, 3]]);
  });

  it('rejects exactly the pushes of a failed flush', async () => {
    let calls = 0;
    const queue = new CoalescingQueue<string>({
      flush: async () => {
        calls++;
        if (calls === 1) throw new Error('disk full');
      },
    });
    const failed = [queue.push(['a']), queue.push(['b'])];
    await expect(failed[0]).rejects.toThrow('disk full');
    await expect(failed[1]).rejects.toThrow('disk full');
    await expect(queue.push(['c'])).resolves.toBeUndefined();
  });

  it('caps a flush at maxBatchSize without splitting a push', async () => {
    const flushes: number[][] = [];
    const queue = new CoalescingQueue<number>({
      flush: async (items) => void flushes.push(items),
      maxBatchSize: 3,
    });
    await Promise.all([queue.push([1, 2]), queue.push([3, 4]), queue.push([5]), queue.push([6, 7, 8, 9])]);
    expect(flushes).toEqual([
      [1, 2],
      [3, 4, 5],
      [6, 7, 8, 9],
    ]);
  });

  it('flushes a push to an idle queue at once, without a timer, sharing it with pushes made in the same run', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    try {
      const flushes: number[][] = [];
      const queue = new CoalescingQueue<number>({
        flush: async (items) => void flushes.push(items),
        lingerMs: 60_000,
      });
      const pushed = [queue.push([1]), queue.push([2])];
      expect(jest.getTimerCount()).toBe(0);
      await Promise.all(pushed);
      expect(flushes).toEqual([[1, 2]]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('holds what comes within lingerMs of the last flush and sends it together once that time has passed', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    try {
      const flushes: number[][] = [];
      const queue = new CoalescingQueue<number>({
        flush: async (items) => void flushes.push(items),
        lingerMs: 10,
      });
      await queue.push([1]);
      const later = [queue.push([2]), queue.push([3])];
      await Promise.resolve();
      expect(flushes).toEqual([[1]]);
      await jest.advanceTimersByTimeAsync(10);
      await Promise.all(later);
      expect(flushes).toEqual([[1], [2, 3]]);
      // Long after the last flush, a push goes at once again.
      await jest.advanceTimersByTimeAsync(50);
      await queue.push([4]);
      expect(flushes).toEqual([[1], [2, 3], [4]]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('drain waits for pending items without the linger delay', async () => {
    const flushed: number[] = [];
    const queue = new CoalescingQueue<number>({
      flush: async (items) => void flushed.push(...items),
      lingerMs: 60_000,
    });
    await queue.push([1]);
    void queue.push([2]);
    await queue.drain();
    expect(flushed).toEqual([1, 2]);
    await expect(queue.drain()).resolves.toBeUndefined();
  });
});
