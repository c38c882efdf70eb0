/** `TOLLGATE_MALLOC_TRIM_INTERVAL_MS`: how often freed C-heap memory goes back to the system; `0` never. */
export const MALLOC_TRIM_INTERVAL_ENV = 'TOLLGATE_MALLOC_TRIM_INTERVAL_MS';
export const DEFAULT_MALLOC_TRIM_INTERVAL_MS = 10_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

type TrimCallback = (err: unknown, released: number) => void;
export interface MallocTrim {
  async(pad: number, done: TrimCallback): void;
}

export interface MallocTrimmer {
  /** Trims now, on a thread of libuv's pool; resolves with whether any memory went back. */
  trim(): Promise<boolean>;
  stop(): void;
}

/**
 * glibc keeps what a thread frees in that thread's arena for its next allocations, and free() hands
 * back only an arena's top, never pages in its middle. The embedded platform's threads (the bookkeeping
 * worker, V8's compile threads) free tens of MiB at start-up and under load that stay in its RSS:
 * 40–70 MiB idle (bench/ANALYSIS.md, "Embedded idle RSS: what moves it between runs", and "Embedded
 * mode's freed C heap handed back"). A distributed service, one JS thread, keeps ~1 MiB: it does not trim.
 * `malloc_trim(0)` returns every arena's free pages to the system; glibc exposes it and Node does not,
 * so it is called through koffi, on libuv's thread pool (it takes each arena's lock in turn, never the
 * event loop's thread). Where there is no glibc (musl, macOS) there is nothing to call: `undefined`.
 */
export async function loadMallocTrim(): Promise<MallocTrim | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    // Loaded only when trimming is on (4 MiB).
    const { default: koffi } = await import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as MallocTrim;
  } catch {
    return undefined;
  }
}

/**
 * Trims once at once, then every `intervalMs` on a timer that never keeps the process alive. Each trim
 * costs about a millisecond of a pool thread when there is little to give back.
 */
export async function startMallocTrim(
  intervalMs: number,
  load: () => Promise<MallocTrim | undefined> = loadMallocTrim,
): Promise<MallocTrimmer | undefined> {
  if (intervalMs <= 0) return undefined;
  const mallocTrim = await load();
  if (mallocTrim === undefined) return undefined;
  const trim = () =>
    new Promise<boolean>((resolve) => {
      // A failed call is a trim that did not happen: the next one tries again.
      mallocTrim.async(0, (err, released) => resolve(!err && released === 1));
    });
  void trim();
  const timer = setInterval(() => void trim(), intervalMs);
  timer.unref();
  return { trim, stop: () => clearInterval(timer) };
}

/** The interval from the environment: a whole number of milliseconds, 0 to switch trimming off. */
export function mallocTrimIntervalMs(env: Record<string, string | undefined>): number {
  const raw = env[MALLOC_TRIM_INTERVAL_ENV];
  if (raw === undefined || raw.trim() === '') return DEFAULT_MALLOC_TRIM_INTERVAL_MS;
  const value = Number(raw);
  // Node's timers take at most 2^31 - 1 ms; past it setInterval would fire every millisecond.
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_TIMER_MS) {
    throw new Error(
      `${MALLOC_TRIM_INTERVAL_ENV} must be a whole number of milliseconds (0 switches it off), not "${raw}"`,
    );
  }
  return value;
}
