import { TokenStatus } from '@tollgate/contracts';
import { afterCharge } from './token-usage';

describe('token usage', () => {
  const key = { status: TokenStatus.Enabled, remainQuota: 100, usedQuota: 0, unlimitedQuota: false };

  it('takes a charge from a limited key’s remainder', () => {
    expect(afterCharge(key, 40)).toEqual({ ...key, remainQuota: 60, usedQuota: 40 });
  });

  it('exhausts an enabled key whose remainder reaches zero, never going below it', () => {
    expect(afterCharge(key, 100)).toMatchObject({ remainQuota: 0, status: TokenStatus.Exhausted });
    expect(afterCharge(key, 130)).toMatchObject({
      remainQuota: 0,
      usedQuota: 130,
      status: TokenStatus.Exhausted,
    });
  });

  it('keeps a disabled key disabled when its remainder runs out', () => {
    expect(afterCharge({ ...key, status: TokenStatus.Disabled }, 100).status).toBe(TokenStatus.Disabled);
  });

  it('leaves an unlimited key’s remainder and status alone', () => {
    const unlimited = { ...key, unlimitedQuota: true, remainQuota: 0 };
    expect(afterCharge(unlimited, 500)).toEqual({ ...unlimited, usedQuota: 500 });
  });
});
