import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  DEFAULT_MALLOC_TRIM_INTERVAL_MS,
  loadMallocTrim,
  mallocTrimIntervalMs,
  startMallocTrim,
} from './malloc-trim';

const MIB = 1024 * 1024;

describe('mallocTrimIntervalMs', () => {
  it('is the default when unset or blank, and takes a whole number of milliseconds, 0 included', () => {
    expect(mallocTrimIntervalMs({})).toBe(DEFAULT_MALLOC_TRIM_INTERVAL_MS);
    expect(mallocTrimIntervalMs({ TOLLGATE_MALLOC_TRIM_INTERVAL_MS: ' ' })).toBe(
      DEFAULT_MALLOC_TRIM_INTERVAL_MS,
    );
    expect(mallocTrimIntervalMs({ TOLLGATE_MALLOC_TRIM_INTERVAL_MS: '0' })).toBe(0);
    expect(mallocTrimIntervalMs({ TOLLGATE_MALLOC_TRIM_INTERVAL_MS: '60000' })).toBe(60_000);
  });

  it('refuses what is not a whole number of milliseconds', () => {
    for (const raw of ['-1', '1.5', 'ten', '1e400', '2147483648']) {
      expect(() => mallocTrimIntervalMs({ TOLLGATE_MALLOC_TRIM_INTERVAL_MS: raw })).toThrow(
        /TOLLGATE_MALLOC_TRIM_INTERVAL_MS must be a whole number/,
      );
    }
  });
});

describe('startMallocTrim', () => {
  afterEach(() => jest.useRealTimers());

  it('trims at once and then every interval, until stopped', async () => {
    jest.useFakeTimers();
    const calls: number[] = [];
    const trimmer = await startMallocTrim(1_000, async () => ({
      async: (pad, done) => (calls.push(pad), done(null, 1)),
    }));
    expect(calls).toEqual([0]);
    jest.advanceTimersByTime(3_000);
    expect(calls).toHaveLength(4);
    trimmer!.stop();
    jest.advanceTimersByTime(3_000);
    expect(calls).toHaveLength(4);
  });

  it('does nothing when switched off or where there is no malloc_trim', async () => {
    const async = jest.fn();
    const load = jest.fn(async () => ({ async }));
    await expect(startMallocTrim(0, load)).resolves.toBeUndefined();
    expect(load).not.toHaveBeenCalled();
    await expect(startMallocTrim(1_000, async () => undefined)).resolves.toBeUndefined();
  });

  it('reports a failed call as a trim that gave nothing back', async () => {
    const trimmer = await startMallocTrim(60_000, async () => ({
      async: (_pad, done) => done(new Error('no'), 0),
    }));
    await expect(trimmer!.trim()).resolves.toBe(false);
    trimmer!.stop();
  });

  // The real thing: glibc's malloc_trim through koffi (CI runs on Linux with glibc, where it must load).
  const glibc =
    process.platform === 'linux' &&
    (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header
      .glibcVersionRuntime !== undefined;
  it('gives freed C-heap memory back to the system with glibc, and loads nothing without it', async () => {
    if (!glibc) {
      // musl, macOS, Windows: there is no malloc_trim to call, so no trimmer either.
      await expect(loadMallocTrim()).resolves.toBeUndefined();
      await expect(startMallocTrim(60_000)).resolves.toBeUndefined();
      return;
    }
    await expect(loadMallocTrim()).resolves.toBeDefined();
    const trimmer = (await startMallocTrim(60_000))!;
    await trimmer.trim();
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Small buffers come from malloc, in the middle of the heap: free() alone keeps their pages.
    const buffers = Array.from({ length: 100_000 }, () => Buffer.allocUnsafeSlow(1_000).fill(1));
    const filled = process.memoryUsage().rss;
    buffers.length = 0;
    gc();
    gc();
    const freed = process.memoryUsage().rss;
    await expect(trimmer.trim()).resolves.toBe(true);
    const trimmed = process.memoryUsage().rss;
    trimmer.stop();
    // ~100 MiB were filled; most of it stays resident after the GC and goes back with the trim.
    expect(filled - trimmed).toBeGreaterThan(50 * MIB);
    expect(freed - trimmed).toBeGreaterThan(25 * MIB);
    // Filling and collecting ~100 MiB took over Jest's default 5 s on a loaded two-core host.
  }, 60_000);
});
