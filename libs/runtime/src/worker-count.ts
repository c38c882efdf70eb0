import { availableParallelism } from 'node:os';
import type { Env } from './service-runtime';
import { serviceSetting, serviceVariable } from './service-setting';

/** The variable that sets how many worker processes every service runs (Node cluster, one shared port). */
export const WORKERS_ENV = 'TOLLGATE_WORKERS';

/** The per-service override, e.g. TOLLGATE_WORKERS_RELAY: one environment can serve every service. */
export const serviceWorkersEnv = (serviceName: string): string => serviceVariable(WORKERS_ENV, serviceName);

/**
 * Worker processes for a service: TOLLGATE_WORKERS_<SERVICE>, else TOLLGATE_WORKERS, as a positive
 * integer or `auto` (one per available core); 1 (a single process, no cluster) when both are unset.
 */
export function workerCount(
  env: Env,
  serviceName: string,
  cores: () => number = availableParallelism,
): number {
  const setting = serviceSetting(env, WORKERS_ENV, serviceName);
  if (setting === undefined) return 1;
  const { name, raw } = setting;
  if (raw === 'auto') return Math.max(1, cores());
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`${name} must be a positive integer or "auto", got "${raw}"`);
  return Number(raw);
}
