import type { Env } from '@tollgate/runtime';

/** How long a service process may take to answer /health/ready before its start counts as failed. */
export const DEFAULT_READY_TIMEOUT_MS = 60_000;
export const READY_TIMEOUT_ENV = 'TOLLGATE_READY_TIMEOUT_MS';

/** TOLLGATE_READY_TIMEOUT_MS as milliseconds (a positive whole number), or the default when unset. */
export function readyTimeoutFromEnv(env: Env): number {
  const raw = env[READY_TIMEOUT_ENV]?.trim();
  if (!raw) return DEFAULT_READY_TIMEOUT_MS;
  const ms = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(ms) || ms <= 0) {
    throw new Error(`${READY_TIMEOUT_ENV} must be a positive number of milliseconds, not "${raw}"`);
  }
  return ms;
}
