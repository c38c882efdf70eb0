/** SPEC §8–9: 502, or a 500 as the first failure, is retried up to 3 times with growing delay. */
export const RETRY_POLICY = { maxRetries: 3, initialDelayMs: 2000, factor: 1.5, maxDelayMs: 8000 } as const;

/** `retriesDone` is how many retries have already been made for this call. */
export function shouldRetry(status: number, retriesDone: number): boolean {
  if (retriesDone >= RETRY_POLICY.maxRetries) return false;
  if (status === 502) return true;
  return status === 500 && retriesDone === 0;
}

/** Delay before retry number `retryIndex` (0-based): 2000, 3000, 4500, … capped at 8000 ms. */
export function retryDelayMs(retryIndex: number): number {
  const delay = RETRY_POLICY.initialDelayMs * RETRY_POLICY.factor ** retryIndex;
  return Math.min(delay, RETRY_POLICY.maxDelayMs);
}
