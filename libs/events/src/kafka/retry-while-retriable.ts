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
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** attempt)));
    }
  }
}
