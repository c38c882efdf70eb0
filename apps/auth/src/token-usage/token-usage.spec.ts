import { TokenStatus } from '@tollgate/contracts';
import { afterCharge, totalsByToken } from './token-usage';

describe('token usage', () => {
  it('sums each key’s events and keeps its latest use, ignoring events without a key', () => {
    const event = (token_id: number | null, quota: number, created_at: number) => ({
      event_id: `${token_id}-${created_at}`,
      token_id,
      quota,
      created_at,
    });

    const totals = totalsByToken([event(1, 10, 100), event(2, 5, 90), event(1, 7, 95), event(null, 50, 200)]);

    expect(totals).toEqual([
      { tokenId: 1, quota: 17, lastUsedAt: 100 },
      { tokenId: 2, quota: 5, lastUsedAt: 90 },
    ]);
  });

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
