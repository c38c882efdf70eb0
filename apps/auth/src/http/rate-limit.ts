import type { KvStore } from '@tollgate/kv';
import type { AppException } from '@tollgate/platform';

export interface RateLimit {
  /** Store key of the counter, e.g. `auth:login:ip:203.0.113.7`. */
  key: string;
  limit: number;
  windowMs: number;
}

/** Counts one hit against each limit; throws `refusal(seconds until allowed)` as soon as one is full. */
export async function enforceRateLimits(
  kv: KvStore,
  limits: readonly RateLimit[],
  refusal: (retryAfterSeconds: number) => AppException,
): Promise<void> {
  for (const { key, limit, windowMs } of limits) {
    const result = await kv.hit(key, limit, windowMs);
    if (!result.allowed) throw refusal(Math.max(1, Math.ceil(result.retryAfterMs / 1000)));
  }
}
