import { setFlagsFromString } from 'node:v8';
import type { Env } from './service-runtime';
import { serviceSetting } from './service-setting';

/**
 * The variable that caps how far V8 lets a service's old generation grow between full GCs; a service's
 * own (e.g. TOLLGATE_HEAP_GROWING_PERCENT_RELAY) comes first.
 */
export const HEAP_GROWING_ENV = 'TOLLGATE_HEAP_GROWING_PERCENT';

/**
 * TOLLGATE_HEAP_GROWING_PERCENT_<SERVICE>, else TOLLGATE_HEAP_GROWING_PERCENT: an integer from 10 to
 * 1000, or undefined when both are unset (V8's own heuristic).
 */
export function heapGrowingPercent(env: Env, serviceName: string): number | undefined {
  const setting = serviceSetting(env, HEAP_GROWING_ENV, serviceName);
  if (setting === undefined) return undefined;
  const { name, raw } = setting;
  const percent = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(percent >= 10 && percent <= 1000))
    throw new Error(`${name} must be an integer from 10 to 1000, got "${raw}"`);
  return percent;
}

/**
 * V8's `--heap-growing-percent` for this process, from the environment: after each full GC the old
 * generation may grow to (1 + P/100) times what it kept before the next, where V8's own factor goes
 * up to ~4 when its GCs are quick. A service holding thousands of streams promotes garbage steadily
 * (relay ~22 KiB live a stream, but its RSS read ~100 KiB): P=50 halved relay's peak RSS at 5,000
 * streams (bench/ANALYSIS.md, h116, h119), at +0.006-0.020 ms of relay's CPU a call at c=64 on
 * ordinary calls (the lead's pairs), hence not a default. The flag is refused in NODE_OPTIONS; V8
 * reads it at every full GC, so setting it here, before the service loads, takes effect (h119
 * verified it in the GC trace).
 */
export function applyHeapGrowingPercent(
  env: Env,
  serviceName: string,
  setFlags: (flags: string) => void = setFlagsFromString,
): void {
  const percent = heapGrowingPercent(env, serviceName);
  if (percent !== undefined) setFlags(`--heap-growing-percent=${percent}`);
}
