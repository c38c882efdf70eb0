import {
  effectiveKeyLimits,
  groupRateLimitsProblem,
  keyLimitAboveGroup,
  limitsOfGroup,
  NO_RATE_LIMITS,
  parseGroupRateLimits,
} from './rate-limits';

describe('group rate limits', () => {
  it('reads the option, filling left-out fields with 0, and finds nothing for groups it does not name', () => {
    const groups = parseGroupRateLimits(
      '{"default": {"rpm": 60}, "vip": {"rpm": 600, "tpm": 10, "concurrency": 2}}',
    );
    expect(limitsOfGroup(groups, 'default')).toEqual({ rpm: 60, tpm: 0, concurrency: 0 });
    expect(limitsOfGroup(groups, 'svip')).toBe(NO_RATE_LIMITS);
    expect(limitsOfGroup(groups, 'constructor')).toBe(NO_RATE_LIMITS);
    expect(parseGroupRateLimits(undefined)).toEqual({});
    expect(parseGroupRateLimits('not json')).toEqual({});
  });

  it('names what is wrong with a value', () => {
    expect(groupRateLimitsProblem('{"default": {"rpm": 60}}')).toBeUndefined();
    expect(groupRateLimitsProblem('{rpm')).toMatch(/must be JSON/);
    expect(groupRateLimitsProblem('[1]')).toBeDefined();
    expect(groupRateLimitsProblem('{"default": {"rpm": -1}}')).toMatch(/^default\.rpm: /);
    expect(groupRateLimitsProblem('{"default": {"rps": 1}}')).toBeDefined();
    expect(groupRateLimitsProblem('{"bad group!": {}}')).toBeDefined();
  });

  it("bounds a key by its own limits within its group's", () => {
    const group = { rpm: 60, tpm: 0, concurrency: 5 };
    expect(effectiveKeyLimits({ rpm_limit: 0, tpm_limit: 1000, concurrency_limit: 10 }, group)).toEqual({
      rpm: 60,
      tpm: 1000,
      concurrency: 5,
    });
    expect(keyLimitAboveGroup({ rpm_limit: 61 }, group)).toBe('rpm_limit');
    expect(keyLimitAboveGroup({ rpm_limit: 60, tpm_limit: 1_000_000 }, group)).toBeUndefined();
  });
});
