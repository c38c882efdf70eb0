import { MemoryKvStore } from './memory-kv-store';

describe('MemoryKvStore with a fake clock', () => {
  let now: number;
  let store: MemoryKvStore;

  beforeEach(() => {
    now = 1_000_000;
    store = new MemoryKvStore({ now: () => now, sweepIntervalMs: 0 });
  });

  afterEach(async () => {
    await store.close();
  });

  it('snapshots its live string keys with their expiry, and a new store restores them', async () => {
    await store.set('session:a', '{"user":5}', 1_000);
    await store.set('forever', 'x');
    await store.set('gone', 'y', 10);
    await store.incr('tries', 1_000);
    await store.hit('window', 5, 1_000);
    await store.reserve('acct', 'r1', 10, 100, 1_000);
    now += 10;
    const snapshot = store.snapshot();
    expect(snapshot).toEqual(
      expect.arrayContaining([
        { key: 'session:a', value: '{"user":5}', expiresAt: 1_001_000 },
        { key: 'forever', value: 'x', expiresAt: null },
        { key: 'tries', value: '1', expiresAt: 1_001_000 },
      ]),
    );
    expect(snapshot).toHaveLength(3);

    const restarted = new MemoryKvStore({ now: () => now, sweepIntervalMs: 0 });
    await restarted.set('forever', 'newer');
    now += 500;
    expect(restarted.restore([...snapshot, { key: 'stale', value: 'z', expiresAt: now }])).toBe(2);
    await expect(restarted.get('session:a')).resolves.toBe('{"user":5}');
    await expect(restarted.ttl('session:a')).resolves.toBe(490);
    await expect(restarted.get('forever')).resolves.toBe('newer');
    await expect(restarted.incr('tries', 1_000)).resolves.toBe(2);
    await expect(restarted.get('stale')).resolves.toBeNull();
    await restarted.close();
  });

  it('counts writes to string keys in its revision, and nothing else', async () => {
    const start = store.revision;
    await store.hit('window', 5, 1_000);
    await store.reserve('acct', 'r1', 10, 100, 1_000);
    await store.get('k');
    await store.del('k');
    expect(store.revision).toBe(start);
    await store.set('k', 'v');
    await store.incr('n', 100);
    await store.setIfAbsent('k', 'w', 100);
    await store.take('k');
    await store.del('n');
    expect(store.revision).toBe(start + 4);
  });

  it('expires a value exactly when its TTL has passed and reports the remaining time before', async () => {
    await store.set('k', 'v', 100);
    now += 99;
    await expect(store.ttl('k')).resolves.toBe(1);
    await expect(store.get('k')).resolves.toBe('v');
    now += 1;
    await expect(store.get('k')).resolves.toBeNull();
    await expect(store.ttl('k')).resolves.toBe(-2);
  });

  it('lets setIfAbsent take over a key whose value has expired', async () => {
    await store.setIfAbsent('lock', 'a', 100);
    now += 50;
    await expect(store.setIfAbsent('lock', 'b', 100)).resolves.toBe(false);
    now += 50;
    await expect(store.setIfAbsent('lock', 'b', 100)).resolves.toBe(true);
    await expect(store.take('lock')).resolves.toBe('b');
  });

  it('keeps the TTL a counter was created with', async () => {
    await store.incr('c', 100);
    now += 60;
    await store.incr('c', 10_000, 2);
    await expect(store.ttl('c')).resolves.toBe(40);
    now += 40;
    await expect(store.incr('c', 100)).resolves.toBe(1);
  });

  it('refuses to increment past the largest safe integer', async () => {
    await store.set('big', String(Number.MAX_SAFE_INTEGER));
    await expect(store.incr('big', 100)).rejects.toThrow(/not an integer or out of range/);
  });

  it('keeps a rate-limit key for one window after its last accepted hit', async () => {
    await store.hit('rl', 1, 1_000);
    now += 500;
    await store.hit('rl', 1, 1_000);
    await expect(store.ttl('rl')).resolves.toBe(500);
    now += 500;
    await expect(store.ttl('rl')).resolves.toBe(-2);
  });

  it('refuses to rate-limit on a key holding a plain value', async () => {
    await store.set('plain', 'v');
    await expect(store.hit('plain', 1, 1_000)).rejects.toThrow(/WRONGTYPE/);
  });

  it('sweeps expired values, windows and idle accounts, and keeps the live ones', async () => {
    await store.set('short', 'v', 100);
    await store.set('long', 'v', 10_000);
    await store.set('forever', 'v');
    await store.hit('rl', 5, 100);
    await store.reserve('idle-account', 'r', 5, 100, 100);
    await store.reserve('busy-account', 'r', 5, 100, 10_000);
    now += 100;
    expect(store.sweep()).toBe(3);
    expect(store.sweep()).toBe(0);
    await expect(store.get('long')).resolves.toBe('v');
    await expect(store.get('forever')).resolves.toBe('v');
    await expect(store.outstanding('busy-account')).resolves.toBe(5);
  });

  it('sweeps on its own timer', async () => {
    jest.useFakeTimers();
    try {
      const timed = new MemoryKvStore({ now: () => now, sweepIntervalMs: 1_000 });
      const sweep = jest.spyOn(timed, 'sweep');
      jest.advanceTimersByTime(2_500);
      expect(sweep).toHaveBeenCalledTimes(2);
      await timed.close();
      jest.advanceTimersByTime(5_000);
      expect(sweep).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('rejects every call once closed', async () => {
    await store.close();
    await expect(store.get('k')).rejects.toThrow(/closed/);
    await expect(store.reserve('a', 'r', 1, 10, 100)).rejects.toThrow(/closed/);
  });
});
