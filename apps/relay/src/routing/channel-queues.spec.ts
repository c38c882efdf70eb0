import { ChannelQueues } from './channel-queues';
import { QueueFullError, QueueTimeoutError } from './queue-errors';
import { aChannel } from './routing.fixtures';
import { CallAbortedError, CallAbortSource, type CallAbort } from '../upstream/call-abort';

const settings = { queueTimeoutMs: 10_000, queueCapacity: 3, priorityGroups: ['enterprise', 'svip'] };

describe('ChannelQueues', () => {
  const limited = aChannel({ id: 5, max_concurrency: 1 });
  let depths: Array<[number, number]>;
  let queues: ChannelQueues;

  beforeEach(() => {
    jest.useFakeTimers();
    depths = [];
    queues = new ChannelQueues(settings, (id, depth) => depths.push([id, depth]));
  });

  afterEach(() => {
    queues.dispose();
    expect(jest.getTimerCount()).toBe(0);
    jest.useRealTimers();
  });

  /** Queues a request and records the order in which requests get their slot. */
  function waitFor(group: string, label: string, order: string[], abort?: CallAbort) {
    return queues.acquire(limited, group, abort).then((release) => {
      order.push(label);
      return release;
    });
  }

  it('lets every request through at once on a channel without a limit', async () => {
    const unlimited = aChannel({ id: 1, max_concurrency: 0 });
    const releases = await Promise.all([1, 2, 3, 4, 5].map(() => queues.acquire(unlimited, 'default')));
    expect(queues.depth(1)).toBe(0);
    releases.forEach((release) => release());
    expect(depths).toEqual([]);
  });

  it('serves waiting priority groups first, and each class in arrival order', async () => {
    const holder = await queues.acquire(limited, 'default');
    const order: string[] = [];
    const waiting = [
      waitFor('default', 'default-1', order),
      waitFor('enterprise', 'enterprise-1', order),
      waitFor('default', 'default-2', order),
    ];
    expect(queues.depth(5)).toBe(3);
    holder();
    let release = await waiting[1]!;
    release();
    release = await waiting[0]!;
    release();
    release = await waiting[2]!;
    release();
    expect(order).toEqual(['enterprise-1', 'default-1', 'default-2']);
    expect(queues.depth(5)).toBe(0);
    expect(depths.map(([, depth]) => depth)).toEqual([1, 2, 3, 2, 1, 0]);
  });

  it('gives a freed slot to the queue, not to a newcomer', async () => {
    const holder = await queues.acquire(limited, 'default');
    const order: string[] = [];
    const queued = waitFor('default', 'queued', order);
    holder();
    const newcomer = waitFor('svip', 'newcomer', order);
    (await queued)();
    (await newcomer)();
    expect(order).toEqual(['queued', 'newcomer']);
  });

  it('rejects with QueueTimeoutError and a Retry-After after the queue timeout', async () => {
    const holder = await queues.acquire(limited, 'default');
    const waiting = queues.acquire(limited, 'default');
    jest.advanceTimersByTime(10_000);
    await expect(waiting).rejects.toBeInstanceOf(QueueTimeoutError);
    await expect(waiting).rejects.toMatchObject({ retryAfterSeconds: 10, channelId: 5 });
    expect(queues.depth(5)).toBe(0);
    holder();
  });

  it('refuses with QueueFullError once the queue holds its capacity', async () => {
    const holder = await queues.acquire(limited, 'default');
    const waiting = [1, 2, 3].map(() => queues.acquire(limited, 'enterprise'));
    await expect(queues.acquire(limited, 'enterprise')).rejects.toBeInstanceOf(QueueFullError);
    expect(queues.depth(5)).toBe(3);
    holder();
    for (const pending of waiting) (await pending)();
  });

  it('leaves the queue with CallAbortedError when the call is aborted, and the next in line moves up', async () => {
    const holder = await queues.acquire(limited, 'default');
    const controller = new CallAbortSource();
    const order: string[] = [];
    const aborted = waitFor('default', 'aborted', order, controller);
    const next = waitFor('default', 'next', order);
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(CallAbortedError);
    expect(queues.depth(5)).toBe(1);
    holder();
    (await next)();
    expect(order).toEqual(['next']);
  });

  it('rejects at once for a call that is already aborted', async () => {
    const controller = new CallAbortSource();
    controller.abort();
    await expect(queues.acquire(limited, 'default', controller)).rejects.toBeInstanceOf(CallAbortedError);
    expect(queues.depth(5)).toBe(0);
  });

  it('frees exactly one slot however often a release is called', async () => {
    const twoSlots = aChannel({ id: 6, max_concurrency: 2 });
    const first = await queues.acquire(twoSlots, 'default');
    const second = await queues.acquire(twoSlots, 'default');
    let thirdIn = false;
    const third = queues.acquire(twoSlots, 'default').then((release) => {
      thirdIn = true;
      return release;
    });
    let fourthIn = false;
    const fourth = queues.acquire(twoSlots, 'default').then((release) => {
      fourthIn = true;
      return release;
    });
    first();
    first();
    first();
    await third;
    await Promise.resolve();
    expect(thirdIn).toBe(true);
    expect(fourthIn).toBe(false);
    second();
    (await fourth)();
    (await third)();
  });

  it('lets waiters in when the channel limit is raised', async () => {
    const holder = await queues.acquire(limited, 'default');
    const waiting = queues.acquire(limited, 'default');
    const raised = { ...limited, max_concurrency: 3 };
    const newcomer = await queues.acquire(raised, 'default');
    (await waiting)();
    newcomer();
    holder();
    expect(queues.depth(5)).toBe(0);
  });

  it('reports how long each waiter waited and how its wait ended; a call that found a free slot reports nothing', async () => {
    const waits: Array<[number, number, string]> = [];
    const timed = new ChannelQueues(settings, undefined, (id, seconds, outcome) =>
      waits.push([id, seconds, outcome]),
    );
    const holder = await timed.acquire(limited, 'default');
    const granted = timed.acquire(limited, 'default');
    const aborting = new CallAbortSource();
    const aborted = timed.acquire(limited, 'default', aborting).catch(() => 'aborted');
    jest.advanceTimersByTime(2_000);
    aborting.abort();
    await aborted;
    jest.advanceTimersByTime(1_000);
    holder();
    const release = await granted;
    const timedOut = timed.acquire(limited, 'default').catch((error: unknown) => error);
    jest.advanceTimersByTime(settings.queueTimeoutMs);
    expect(await timedOut).toBeInstanceOf(QueueTimeoutError);
    release();
    timed.dispose();

    expect(waits).toEqual([
      [5, expect.closeTo(2, 1), 'aborted'],
      [5, expect.closeTo(3, 1), 'granted'],
      [5, expect.closeTo(settings.queueTimeoutMs / 1000, 1), 'timeout'],
    ]);
  });

  it('rejects whoever still waits when disposed', async () => {
    await queues.acquire(limited, 'default');
    const waiting = queues.acquire(limited, 'default');
    queues.dispose();
    await expect(waiting).rejects.toThrow('disposed');
  });
});
