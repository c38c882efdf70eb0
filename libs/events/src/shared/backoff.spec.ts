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

  it('fills in defaults and rejects a cap below the first delay', () => {
    expect(backoffPolicy()).toEqual({ initialDelayMs: 200, maxDelayMs: 30_000 });
    expect(() => backoffPolicy({ initialDelayMs: 500, maxDelayMs: 100 })).toThrow(RangeError);
  });

  it('stops sleeping as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const slept = sleep(10_000, controller.signal);
    controller.abort();
    await expect(slept).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(sleep(1, new AbortController().signal)).resolves.toBe(true);
  });
});
