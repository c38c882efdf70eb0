import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import type { ServiceName } from '@tollgate/contracts';
import type { Env } from '@tollgate/runtime';

/** `TOLLGATE_BOOKKEEPING_NICE`: the nice value of the bookkeeping services' processes; `0` leaves them alone. */
export const BOOKKEEPING_NICE_ENV = 'TOLLGATE_BOOKKEEPING_NICE';

/**
 * The services whose work can wait a few milliseconds: they settle usage, apply key and channel usage,
 * publish balances, and serve /api pages. Gateway and relay carry the calls and keep nice 0.
 */
export const BOOKKEEPING_SERVICES: readonly ServiceName[] = ['auth', 'billing', 'admin', 'chat'];

/**
 * When the distributed launcher starts every service on one machine, gateway and relay share its cores with
 * the bookkeeping services, and at equal priority a settlement batch or a usage fetch runs while a call
 * waits. At nice 10 a bookkeeping process gets about a tenth of a core's share against a nice 0 one when
 * both want the CPU, and all of it when the CPU is idle. Quiet machine, c=1, 8 interleaved pairs
 * (bench/micro/distributed-lone-call.mjs): p99 lower in 6 (median 5.50 → 4.88 ms), the bookkeeping's CPU
 * during the slowest 1 % of calls −35 % in 8 of 8, p50, req/s and CPU per call unchanged (bench/ANALYSIS.md,
 * "Distributed mode on one machine", H50). Embedded mode does the same for its bookkeeping thread.
 */
export const DEFAULT_BOOKKEEPING_NICE = 10;

/** The bookkeeping services' nice value from the environment: a whole number 0–19, 10 when unset. */
export function bookkeepingNiceFromEnv(env: Env): number {
  const raw = env[BOOKKEEPING_NICE_ENV]?.trim();
  if (!raw) return DEFAULT_BOOKKEEPING_NICE;
  if (!/^\d+$/.test(raw) || Number(raw) > 19)
    throw new Error(`${BOOKKEEPING_NICE_ENV} must be a whole number from 0 to 19, got "${raw}"`);
  return Number(raw);
}

/** The nice value each service's process is given: `bookkeepingNice` for the bookkeeping services, 0 for the rest. */
export function serviceNice(service: ServiceName, bookkeepingNice: number): number {
  return BOOKKEEPING_SERVICES.includes(service) ? bookkeepingNice : 0;
}

/**
 * Lowers every thread of a process and of its descendants to `nice` (Linux keeps one per thread:
 * setpriority on a pid changes its main thread alone, and the threads V8 and libuv started keep theirs).
 * Threads and processes started later inherit it from the thread that starts them. A thread already at
 * `nice` or lower is left as it is: a launcher run under `nice` never raises a service above itself.
 * Elsewhere than Linux it lowers the process's own. Returns how many threads it changed; a thread or
 * process gone meanwhile is skipped.
 */
export function lowerProcessTreePriority(pid: number, nice: number): number {
  if (process.platform !== 'linux') return lower(pid, nice);
  let changed = 0;
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of threads) {
    changed += lower(Number(tid), nice);
    for (const child of childrenOf(pid, tid)) changed += lowerProcessTreePriority(child, nice);
  }
  return changed;
}

function lower(id: number, nice: number): number {
  try {
    if (getPriority(id) >= nice) return 0;
    setPriority(id, nice);
    return 1;
  } catch {
    return 0; // ended meanwhile
  }
}

function childrenOf(pid: number, tid: string): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
