import {
  ACCOUNT_SET_QUOTA_CALL,
  CHANNEL_AUTO_DISABLE_CALL,
  CHANNEL_TEST_CALL,
  servicePath,
} from './service-calls';

describe('service calls', () => {
  it('fill path parameters, encoded', () => {
    expect(servicePath(CHANNEL_AUTO_DISABLE_CALL, { id: 7 })).toBe('/internal/channels/7/auto-disable');
    expect(servicePath(ACCOUNT_SET_QUOTA_CALL, { userId: '1/2' })).toBe('/internal/accounts/1%2F2/quota');
    expect(servicePath(CHANNEL_TEST_CALL)).toBe('/internal/channels/test');
  });

  it('refuse a missing parameter', () => {
    expect(() => servicePath(CHANNEL_AUTO_DISABLE_CALL)).toThrow(/missing path parameter id/);
  });

  it('use one audience per call', () => {
    const audiences = [CHANNEL_TEST_CALL, CHANNEL_AUTO_DISABLE_CALL, ACCOUNT_SET_QUOTA_CALL].map(
      (c) => c.audience,
    );
    expect(new Set(audiences).size).toBe(audiences.length);
  });
});
