export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

/** Exponential delay before the next attempt after `failures` consecutive failures (≥ 1). */
export function backoffDelay(failures: number, policy: BackoffPolicy): number {
  const exponent = Math.max(0, failures - 1);
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(exponent, 30));
}
