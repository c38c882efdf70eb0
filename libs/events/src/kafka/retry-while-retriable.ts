import { setTimeout as delay } from 'node:timers/promises';
import { backoffDelayMs } from '../shared/backoff';

/** 200 ms, 400 ms, … up to 2 s between attempts. */
const RETRY_BACKOFF = { initialDelayMs: 200, maxDelayMs: 2_000 };

/**
 * Topics created a moment ago (a fresh cluster, or ensureTopics just before) answer "not the
 * leader" until their partitions have leaders. Runs `action` again on such retriable kafkajs errors,
 * with a growing pause, until `windowMs` has passed or `stopped()` says to give up.
 */
export async function retryWhileRetriable<T>(
  action: () => Promise<T>,
  {
    windowMs,
    stopped = () => false,
    onRetry,
  }: { windowMs: number; stopped?: () => boolean; onRetry?: (attempt: number, error: unknown) => void },
): Promise<T> {
  const deadline = Date.now() + windowMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      const retriable = (error as { retriable?: boolean }).retriable === true;
      if (!retriable || stopped() || Date.now() > deadline) throw error;
      onRetry?.(attempt, error);
      await delay(backoffDelayMs(attempt, RETRY_BACKOFF));
    }
  }
}
