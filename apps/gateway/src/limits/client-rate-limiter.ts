import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Requests per minute per client IP, counted by this gateway instance (no network round trip on
 * the hot path). With N replicas behind a balancer a client gets up to N times the limit; the
 * per-user and per-key limits that matter for money live in relay, on Redis.
 */
export class ClientRateLimiter {
  private readonly limiter?: RateLimiterMemory;

  constructor(perMinute: number) {
    if (perMinute > 0) this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  }

  /** Synchronous when nothing limits the gateway: no promise for the call to wait on. */
  check(ip: string): RateDecision | Promise<RateDecision> {
    if (!this.limiter) return ALLOWED;
    return this.consume(this.limiter, ip);
  }

  private async consume(limiter: RateLimiterMemory, ip: string): Promise<RateDecision> {
    try {
      await limiter.consume(ip);
      return ALLOWED;
    } catch (res) {
      if (res instanceof RateLimiterRes)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
      throw res;
    }
  }
}

const ALLOWED: RateDecision = Object.freeze({ allowed: true });
