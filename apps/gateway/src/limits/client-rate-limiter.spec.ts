import { ClientRateLimiter } from './client-rate-limiter';

describe('ClientRateLimiter', () => {
  it('allows the configured number of requests per minute, then refuses with a Retry-After in seconds', async () => {
    const limiter = new ClientRateLimiter(3);

    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.check('198.51.100.1'));

    expect(decisions.slice(0, 3)).toEqual([{ allowed: true }, { allowed: true }, { allowed: true }]);
    const refused = decisions[3]!;
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('counts each client address on its own', async () => {
    const limiter = new ClientRateLimiter(1);

    expect(await limiter.check('198.51.100.1')).toEqual({ allowed: true });
    expect(await limiter.check('198.51.100.2')).toEqual({ allowed: true });
    expect((await limiter.check('198.51.100.1')).allowed).toBe(false);
  });

  it('admits a call at once, not in a promise, when the limit is 0', () => {
    const limiter = new ClientRateLimiter(0);

    const decision = limiter.check('198.51.100.1');

    expect(decision).not.toBeInstanceOf(Promise);
    expect(decision).toEqual({ allowed: true });
  });

  it('never refuses when the limit is 0', async () => {
    const limiter = new ClientRateLimiter(0);

    for (let i = 0; i < 1000; i++) expect(await limiter.check('198.51.100.1')).toEqual({ allowed: true });
  });
});
