import { setTimeout as delay } from 'node:timers/promises';
import type { BackoffOptions } from '../port/event-bus.port';

export interface BackoffPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialDelayMs: 200, maxDelayMs: 30_000 };

export function backoffPolicy(options: BackoffOptions = {}): BackoffPolicy {
  const policy = {
    initialDelayMs: options.initialDelayMs ?? DEFAULT_BACKOFF.initialDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs,
  };
  if (policy.initialDelayMs < 0 || policy.maxDelayMs < policy.initialDelayMs) {
    throw new RangeError(`invalid backoff ${JSON.stringify(policy)}`);
  }
  return policy;
}

/**
 * The one exponential backoff of the platform (the bus's retries, Kafka admin calls waiting for
 * leaders or a coordinator, the outbox relay's rounds; exported from @tollgate/events for the rest):
 * the delay before retry number `retry` (1 = the first retry, or after the first failure) is
 * `initialDelayMs * 2^(retry - 1)`, capped at `maxDelayMs`. No jitter: the callers are a few
 * consumers and relays per service, not a crowd of clients.
 */
export function backoffDelayMs(retry: number, policy: BackoffPolicy): number {
  const exponent = Math.max(0, retry - 1);
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(exponent, 52));
}

/** Waits `ms`; resolves false (early) when the signal aborts. */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    throw error;
  }
}
