import { backoffDelayMs, backoffPolicy, sleep } from './backoff';

describe('backoff', () => {
  const policy = backoffPolicy({ initialDelayMs: 100, maxDelayMs: 1000 });

  it('doubles the delay with every retry', () => {
    expect([1, 2, 3, 4].map((retry) => backoffDelayMs(retry, policy))).toEqual([100, 200, 400, 800]);
  });

  it('never waits longer than the cap, even after very many retries', () => {
    expect(backoffDelayMs(5, policy)).toBe(1000);
    expect(backoffDelayMs(10_000, policy)).toBe(1000);
  });

  it("gives the outbox relay's delays (500 ms doubled up to 30 s), and zero from a zero start", () => {
    expect(backoffDelayMs(1, backoffPolicy({ initialDelayMs: 500, maxDelayMs: 30_000 }))).toBe(500);
    expect(backoffDelayMs(7, backoffPolicy({ initialDelayMs: 500, maxDelayMs: 30_000 }))).toBe(30_000);
    expect(backoffDelayMs(6, backoffPolicy({ initialDelayMs: 500, maxDelayMs: 30_000 }))).toBe(16_000);
    expect(backoffDelayMs(5_000, backoffPolicy({ initialDelayMs: 0, maxDelayMs: 0 }))).toBe(0);
  });

  it('fills in defaults and rejects a cap below the first delay', () => {
    expect(backoffPolicy()).toEqual({ initialDelayMs: 200, maxDelayMs: 30_000 });
    expect(() => backoffPolicy({ initialDelayMs: 500, maxDelayMs: 100 })).toThrow(RangeError);
  });

  it('stops sleeping as soon as the signal aborts', async () => {
    const controller = new AbortController();
    // Longer than the test's timeout: only the abort can end it in time.
    const slept = sleep(60_000, controller.signal);
    controller.abort();
    await expect(slept).resolves.toBe(false);
    await expect(sleep(1, new AbortController().signal)).resolves.toBe(true);
  });
});
