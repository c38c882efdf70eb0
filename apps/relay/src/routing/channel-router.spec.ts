import type { CatalogChannel } from '@tollgate/contracts';
import { ChannelRouter } from './channel-router';
import { QueueTimeoutError } from './queue-errors';
import { aChannel, FakeChannelTable, seededRandom } from './routing.fixtures';

const ids = (attempts: Array<{ channel: CatalogChannel }>) => attempts.map((a) => a.channel.id);
const serverError = { kind: 'http', status: 502 } as const;
const invalidKey = {
  kind: 'http',
  status: 401,
  errorType: 'invalid_request_error',
  errorCode: 'invalid_api_key',
} as const;

describe('ChannelRouter', () => {
  let table: FakeChannelTable;
  let router: ChannelRouter;
  const bans: Array<[number, string, number | undefined]> = [];

  function routerOver(channels: CatalogChannel[], maxRetries = 2) {
    table = new FakeChannelTable(channels);
    router = new ChannelRouter(
      table,
      { maxRetries, breaker: { consecutiveFailures: 2, halfOpenAfterMs: 30_000 } },
      { onAutoBan: (channel, reason, status) => bans.push([channel.id, reason, status]) },
      seededRandom(11),
    );
    return router;
  }

  beforeEach(() => {
    bans.length = 0;
    jest.useFakeTimers();
  });

  afterEach(() => {
    router.dispose();
    jest.useRealTimers();
  });

  describe('plan', () => {
    it('tries the highest priority first and falls through to lower ones, at most maxRetries + 1', () => {
      routerOver([
        aChannel({ id: 1, priority: 0 }),
        aChannel({ id: 2, priority: 10 }),
        aChannel({ id: 3, priority: 5 }),
        aChannel({ id: 4, priority: -1 }),
      ]);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([2, 3, 1]);
    });

    it('keeps to one channel when retries are off', () => {
      routerOver([aChannel({ id: 1 }), aChannel({ id: 2 })], 0);
      expect(router.plan('gpt-4o', 'default')).toHaveLength(1);
    });

    it('hands out the upstream model name from the mapping and only channels of the group', () => {
      routerOver([
        aChannel({ id: 1, groups: ['vip'], model_mapping: { 'gpt-4o': 'gpt-4o-2024-08-06' } }),
        aChannel({ id: 2, groups: ['default'] }),
      ]);
      expect(router.plan('gpt-4o', 'vip')).toEqual([
        { channel: expect.objectContaining({ id: 1 }), upstreamModel: 'gpt-4o-2024-08-06' },
      ]);
      expect(router.plan('unknown-model', 'vip')).toEqual([]);
    });

    it('reads the table once and again only after it changed', () => {
      routerOver([aChannel({ id: 1 })]);
      router.plan('gpt-4o', 'default');
      router.plan('gpt-4o', 'default');
      expect(table.reads).toBe(1);
      table.put(aChannel({ id: 2, priority: 9 }));
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([2, 1]);
      table.remove(2);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1]);
      expect(table.reads).toBe(3);
    });

    it('follows a version counter on tables without change events', () => {
      const rows = new Map([['1', aChannel({ id: 1 })]]);
      const versioned = { version: 1, entries: () => rows.entries() };
      router = new ChannelRouter(versioned, {}, {}, seededRandom(1));
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1]);
      rows.set('1', aChannel({ id: 1, status: 2 }));
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1]);
      versioned.version = 2;
      expect(router.plan('gpt-4o', 'default')).toEqual([]);
    });

    it('re-reads a plain map on every plan', () => {
      const rows = new Map([['1', aChannel({ id: 1 })]]);
      router = new ChannelRouter(rows);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1]);
      rows.delete('1');
      expect(router.plan('gpt-4o', 'default')).toEqual([]);
    });
  });

  describe('circuit breaker', () => {
    it('leaves a channel out after consecutive upstream failures and tries it again after the delay', async () => {
      routerOver([aChannel({ id: 1, priority: 1 }), aChannel({ id: 2 })]);
      const [first] = router.plan('gpt-4o', 'default');
      router.recordFailure(first!.channel, serverError);
      router.recordFailure(first!.channel, { kind: 'connect', message: 'ECONNREFUSED' });
      await jest.advanceTimersByTimeAsync(0);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([2]);
      await jest.advanceTimersByTimeAsync(30_000);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1, 2]);
      router.recordSuccess(first!.channel);
      await jest.advanceTimersByTimeAsync(0);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1, 2]);
    });

    it('lets one call at a time try a channel past its open circuit; the calls meanwhile go to the next channel', async () => {
      routerOver([aChannel({ id: 1, priority: 1 }), aChannel({ id: 2 })]);
      const primary = router.plan('gpt-4o', 'default')[0]!.channel;
      router.recordFailure(primary, serverError);
      router.recordFailure(primary, serverError);
      await jest.advanceTimersByTimeAsync(30_000);
      const concurrent = [1, 2, 3, 4].map(() => ids(router.plan('gpt-4o', 'default')));
      expect(concurrent).toEqual([[1, 2], [2], [2], [2]]);
      // The trial hangs: it fails, the circuit opens for another delay, and nobody tries the channel.
      router.recordFailure(primary, {
        kind: 'connect',
        message: 'UND_ERR_HEADERS_TIMEOUT',
        headersTimedOut: true,
      });
      await jest.advanceTimersByTimeAsync(0);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([2]);
      await jest.advanceTimersByTimeAsync(30_000);
      expect([1, 2].map(() => ids(router.plan('gpt-4o', 'default')))).toEqual([[1, 2], [2]]);
      router.recordSuccess(primary);
      await jest.advanceTimersByTimeAsync(0);
      expect([1, 2].map(() => ids(router.plan('gpt-4o', 'default')))).toEqual([
        [1, 2],
        [1, 2],
      ]);
    });

    it('does not count the client’s own mistakes against the channel', async () => {
      routerOver([aChannel({ id: 1 })]);
      const channel = router.plan('gpt-4o', 'default')[0]!.channel;
      router.recordFailure(channel, serverError);
      router.recordFailure(channel, { kind: 'http', status: 400, errorType: 'invalid_request_error' });
      router.recordFailure(channel, serverError);
      await jest.advanceTimersByTimeAsync(0);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1]);
    });
  });

  describe('auto-ban', () => {
    it('bans an auto_ban channel with a dead key once, drops it at once, and lifts the ban when its status changes', () => {
      routerOver([aChannel({ id: 1, priority: 1 }), aChannel({ id: 2 })]);
      const channel = router.plan('gpt-4o', 'default')[0]!.channel;
      router.recordFailure(channel, invalidKey);
      router.recordFailure(channel, invalidKey);
      expect(bans).toEqual([[1, 'invalid key (401 invalid_request_error invalid_api_key)', 401]]);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([2]);

      table.put({ ...channel, status: 3 });
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([2]);
      table.put({ ...channel, status: 1 });
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1, 2]);
      router.recordFailure(channel, { kind: 'http', status: 429, errorType: 'insufficient_quota' });
      expect(bans.map(([id, reason]) => [id, reason])).toEqual([
        [1, 'invalid key (401 invalid_request_error invalid_api_key)'],
        [1, 'quota exhausted (429 insufficient_quota)'],
      ]);
    });

    it('lifts the ban when an operator replaces the key, not on other edits', () => {
      routerOver([aChannel({ id: 1 })]);
      const channel = router.plan('gpt-4o', 'default')[0]!.channel;
      router.recordFailure(channel, invalidKey);
      table.put({ ...channel, name: 'renamed' });
      expect(router.plan('gpt-4o', 'default')).toEqual([]);
      table.put({ ...channel, key_encrypted: 'another key' });
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1]);
    });

    it('keeps a channel without auto_ban and lets its breaker judge it', async () => {
      routerOver([aChannel({ id: 1, auto_ban: false })]);
      const channel = router.plan('gpt-4o', 'default')[0]!.channel;
      router.recordFailure(channel, invalidKey);
      expect(bans).toEqual([]);
      expect(ids(router.plan('gpt-4o', 'default'))).toEqual([1]);
      router.recordFailure(channel, invalidKey);
      await jest.advanceTimersByTimeAsync(0);
      expect(router.plan('gpt-4o', 'default')).toEqual([]);
    });
  });

  describe('acquire', () => {
    it('queues on a channel at its max_concurrency and reports the depth', async () => {
      const depths: number[] = [];
      table = new FakeChannelTable([aChannel({ id: 1, max_concurrency: 1 })]);
      router = new ChannelRouter(
        table,
        { queueTimeoutMs: 2000 },
        { onQueueDepth: (_id, depth) => depths.push(depth) },
      );
      const channel = router.plan('gpt-4o', 'default')[0]!.channel;
      const release = await router.acquire(channel, 'default');
      const waiting = router.acquire(channel, 'default');
      expect(router.queueDepth(1)).toBe(1);
      jest.advanceTimersByTime(2000);
      await expect(waiting).rejects.toEqual(expect.any(QueueTimeoutError));
      await expect(waiting).rejects.toMatchObject({ retryAfterSeconds: 2 });
      release();
      expect(depths).toEqual([1, 0]);
    });
  });

  it('stops listening to the table when disposed', () => {
    routerOver([aChannel({ id: 1 })]);
    expect(table.listenerCount).toBe(1);
    router.dispose();
    expect(table.listenerCount).toBe(0);
  });

  it('refuses nonsensical options', () => {
    expect(() => new ChannelRouter(new Map(), { maxRetries: -1 })).toThrow(RangeError);
  });

  it('answers isRetriable for connect errors, 429 and 5xx, not for 400', () => {
    routerOver([]);
    expect(router.isRetriable({ kind: 'connect', message: 'ETIMEDOUT' })).toBe(true);
    expect(router.isRetriable({ kind: 'http', status: 429 })).toBe(true);
    expect(router.isRetriable({ kind: 'http', status: 503 })).toBe(true);
    expect(router.isRetriable({ kind: 'http', status: 400 })).toBe(false);
  });
});
