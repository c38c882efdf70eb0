import { RATE_LIMIT_WINDOW_MS } from '@tollgate/contracts';

/** One limit as a call left it. */
export interface DimensionState {
  limit: number;
  remaining: number;
}

/**
 * A duration the way OpenAI writes its reset headers: `250ms`, `6s`, `1m30s`, `1.5s`.
 */
export function formatResetDuration(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1000) return `${whole}ms`;
  const minutes = Math.floor(whole / 60_000);
  const seconds = (whole % 60_000) / 1000;
  const secondsText = `${Number(seconds.toFixed(3))}s`;
  return minutes > 0 ? `${minutes}m${secondsText}` : secondsText;
}

/** Until the limit is whole again, if nothing more were used: the used share of the sliding window. */
function resetMs(state: DimensionState): number {
  const used = Math.min(state.limit, Math.max(0, state.limit - state.remaining));
  return (RATE_LIMIT_WINDOW_MS * used) / state.limit;
}

/** OpenAI's x-ratelimit-* trios, for the dimensions that limit the call. */
export function rateLimitHeaders(
  requests: DimensionState | undefined,
  tokens: DimensionState | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (requests !== undefined) {
    headers['x-ratelimit-limit-requests'] = String(requests.limit);
    headers['x-ratelimit-remaining-requests'] = String(Math.max(0, requests.remaining));
    headers['x-ratelimit-reset-requests'] = formatResetDuration(resetMs(requests));
  }
  if (tokens !== undefined) {
    headers['x-ratelimit-limit-tokens'] = String(tokens.limit);
    headers['x-ratelimit-remaining-tokens'] = String(Math.max(0, tokens.remaining));
    headers['x-ratelimit-reset-tokens'] = formatResetDuration(resetMs(tokens));
  }
  return headers;
}
