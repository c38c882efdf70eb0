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

  async check(ip: string): Promise<RateDecision> {
    if (!this.limiter) return { allowed: true };
    try {
      await this.limiter.consume(ip);
      return { allowed: true };
    } catch (res) {
      if (res instanceof RateLimiterRes)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
      throw res;
    }
  }
}
