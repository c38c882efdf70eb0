import { backoffDelay } from './relay-backoff';

describe('backoffDelay', () => {
  const policy = { initialMs: 100, maxMs: 1_000 };

  it('doubles from the initial delay', () => {
    expect([1, 2, 3, 4].map((failures) => backoffDelay(failures, policy))).toEqual([100, 200, 400, 800]);
  });

  it('stops at the maximum, however many failures', () => {
    expect(backoffDelay(5, policy)).toBe(1_000);
    expect(backoffDelay(10_000, policy)).toBe(1_000);
  });
});
