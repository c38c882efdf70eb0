import type { RateLimitResult } from '../port/kv-store.port';

/**
 * The accepted hits of one rate-limit key, oldest first. A hit at time `t` counts while
 * `now - windowMs < t`, i.e. it leaves the window exactly `windowMs` after it was made.
 */
export class SlidingWindowLog {
  private readonly hits: number[] = [];

  hit(now: number, limit: number, windowMs: number): RateLimitResult {
    this.evictUpTo(now - windowMs);
    const count = this.hits.length;
    if (count >= limit) {
      // The hit whose departure brings the count below the limit; with count === limit it is
      // the oldest one (count can exceed the limit when a caller lowers it between calls).
      const blocking = this.hits[count - limit]!;
      return { allowed: false, remaining: 0, retryAfterMs: blocking + windowMs - now };
    }
    this.record(now);
    return { allowed: true, remaining: limit - count - 1, retryAfterMs: 0 };
  }

  private evictUpTo(cutoff: number): void {
    let expired = 0;
    while (expired < this.hits.length && this.hits[expired]! <= cutoff) expired++;
    if (expired > 0) this.hits.splice(0, expired);
  }

  private record(now: number): void {
    // An injected clock may step backwards; keep the log ordered anyway.
    let index = this.hits.length;
    while (index > 0 && this.hits[index - 1]! > now) index--;
    this.hits.splice(index, 0, now);
  }
}
