import { revokeSignIns, sessionRevoked } from './sign-in-revocation';

describe('sign-in revocation', () => {
  it('keeps every session of a user whose sign-ins were never revoked', () => {
    expect(sessionRevoked(0, { sessionsValidAfter: null })).toBe(false);
    expect(sessionRevoked(Date.now(), { sessionsValidAfter: null })).toBe(false);
  });

  it('ends sessions begun before the mark and keeps those begun at or after it', () => {
    const user = { sessionsValidAfter: 1_700_000_000_000 };

    expect(sessionRevoked(1_699_999_999_999, user)).toBe(true);
    expect(sessionRevoked(1_700_000_000_000, user)).toBe(false);
    expect(sessionRevoked(1_700_000_000_001, user)).toBe(false);
  });

  it('sets the mark and clears the personal access token', () => {
    const user = {
      sessionsValidAfter: null as number | null,
      accessTokenHash: 'ab'.repeat(32) as string | null,
    };

    revokeSignIns(user, 1_700_000_000_000);

    expect(user).toEqual({ sessionsValidAfter: 1_700_000_000_000, accessTokenHash: null });
    expect(sessionRevoked(1_699_999_999_999, user)).toBe(true);
  });

  it('moves a later revocation forward, ending sessions begun between the two', () => {
    const user = { sessionsValidAfter: 1_000 as number | null, accessTokenHash: null as string | null };
    revokeSignIns(user, 5_000);

    expect(sessionRevoked(3_000, user)).toBe(true);
    expect(sessionRevoked(5_000, user)).toBe(false);
  });
});
