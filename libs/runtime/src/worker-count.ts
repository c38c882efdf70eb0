import { availableParallelism } from 'node:os';
import type { Env } from './service-runtime';

/** The variable that sets how many worker processes every service runs (Node cluster, one shared port). */
export const WORKERS_ENV = 'TOLLGATE_WORKERS';

/** The per-service override, e.g. TOLLGATE_WORKERS_RELAY: one environment can serve every service. */
export const serviceWorkersEnv = (serviceName: string): string =>
  `${WORKERS_ENV}_${serviceName.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * Worker processes for a service: TOLLGATE_WORKERS_<SERVICE>, else TOLLGATE_WORKERS, as a positive
 * integer or `auto` (one per available core); 1 (a single process, no cluster) when both are unset.
 */
export function workerCount(
  env: Env,
  serviceName: string,
  cores: () => number = availableParallelism,
): number {
  const name = [serviceWorkersEnv(serviceName), WORKERS_ENV].find((n) => env[n]?.trim());
  if (!name) return 1;
  const raw = env[name]!.trim();
  if (raw === 'auto') return Math.max(1, cores());
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`${name} must be a positive integer or "auto", got "${raw}"`);
  return Number(raw);
}
