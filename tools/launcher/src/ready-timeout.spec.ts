import { DEFAULT_READY_TIMEOUT_MS, readyTimeoutFromEnv } from './ready-timeout';

describe('readyTimeoutFromEnv', () => {
  it('defaults to a minute when unset or blank', () => {
    expect(DEFAULT_READY_TIMEOUT_MS).toBe(60_000);
    expect(readyTimeoutFromEnv({})).toBe(60_000);
    expect(readyTimeoutFromEnv({ TOLLGATE_READY_TIMEOUT_MS: ' ' })).toBe(60_000);
  });

  it('reads milliseconds', () => {
    expect(readyTimeoutFromEnv({ TOLLGATE_READY_TIMEOUT_MS: '180000' })).toBe(180_000);
  });

  it.each(['0', '-5', '1.5', '2m', 'abc', '99999999999999999999'])('refuses %p', (value) => {
    expect(() => readyTimeoutFromEnv({ TOLLGATE_READY_TIMEOUT_MS: value })).toThrow(
      /TOLLGATE_READY_TIMEOUT_MS must be a positive number of milliseconds/,
    );
  });
});
