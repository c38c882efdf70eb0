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
