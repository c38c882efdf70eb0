export interface RoutingOptions {
  /** Further channels tried after the first one fails retriably; a plan holds at most maxRetries + 1. */
  maxRetries: number;
  /** How long a request may wait for a free slot on a channel at its max_concurrency. */
  queueTimeoutMs: number;
  /** How many requests may wait per channel (both priority classes together). */
  queueCapacity: number;
  /** Groups whose requests leave a channel's queue before everybody else's. */
  priorityGroups: readonly string[];
  breaker: {
    /** Consecutive channel failures that open the channel's circuit. */
    consecutiveFailures: number;
    /** How long an open circuit keeps the channel out of plans before it may be tried again. */
    halfOpenAfterMs: number;
  };
}

export const DEFAULT_ROUTING_OPTIONS: RoutingOptions = Object.freeze({
  maxRetries: 2,
  queueTimeoutMs: 10_000,
  queueCapacity: 1000,
  priorityGroups: Object.freeze(['enterprise', 'svip']),
  breaker: Object.freeze({ consecutiveFailures: 5, halfOpenAfterMs: 30_000 }),
});

/** Fills what the caller left out with the defaults, the breaker settings field by field. */
export function resolveRoutingOptions(options: Partial<RoutingOptions> = {}): RoutingOptions {
  const resolved: RoutingOptions = {
    ...DEFAULT_ROUTING_OPTIONS,
    ...options,
    breaker: { ...DEFAULT_ROUTING_OPTIONS.breaker, ...options.breaker },
  };
  assertWholeNumber('maxRetries', resolved.maxRetries, 0);
  assertWholeNumber('queueTimeoutMs', resolved.queueTimeoutMs, 1);
  assertWholeNumber('queueCapacity', resolved.queueCapacity, 0);
  assertWholeNumber('breaker.consecutiveFailures', resolved.breaker.consecutiveFailures, 1);
  assertWholeNumber('breaker.halfOpenAfterMs', resolved.breaker.halfOpenAfterMs, 0);
  return resolved;
}

function assertWholeNumber(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`routing option ${name} must be an integer >= ${min}, got ${value}`);
  }
}
