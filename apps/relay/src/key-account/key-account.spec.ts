import { ErrorCode } from '@tollgate/contracts';
import { aToken, aUser } from '../../test/support/fixtures';
import { KeyAccount } from './key-account';

const spent = { today_quota: 1_000, today_requests: 2, month_quota: 50_000, month_requests: 40 };

function account(balance = { quota: 2_000_000, used_quota: 500_000 }) {
  const usage = {
    keyUsage: jest.fn(async () => spent),
    generation: jest.fn(async () => undefined),
  };
  const keyAccount = new KeyAccount({
    balances: { balanceOf: () => balance },
    usage,
    groupRateLimits: () => ({ default: { rpm: 60, tpm: 0, concurrency: 5 } }),
  });
  return { keyAccount, usage };
}

const caller = (token = aToken({ id: 3 })) => ({ token, user: aUser(7), group: 'default' });

describe('KeyAccount', () => {
  it('describes a key: what it may still spend, what it spent, its rate limits', async () => {
    const { keyAccount } = account();
    const limited = caller(aToken({ id: 3, unlimited_quota: false, remain_quota: 250_000, used_quota: 100 }));
    const { data } = await keyAccount.describe(limited);
    expect(data).toMatchObject({
      limit_remaining: 250_000,
      limit_remaining_usd: 0.5,
      balance: 2_000_000,
      balance_usd: 4,
      usage: 100,
      usage_today: 1_000,
      usage_today_usd: 0.002,
      requests_month: 40,
      expires_at: null,
      rate_limits: { requests_per_minute: 60, tokens_per_minute: 0, concurrent_requests: 5 },
    });
    expect((await keyAccount.describe(caller())).data.limit_remaining).toBeNull();
  });

  it("answers the legacy billing endpoints so that a checker's limit minus usage is what is left", () => {
    const { keyAccount } = account();
    const sub = keyAccount.subscription(caller());
    const use = keyAccount.usage(caller());
    expect(sub).toMatchObject({ object: 'billing_subscription', hard_limit_usd: 5, access_until: 0 });
    expect(use).toEqual({ object: 'list', total_usage: 100 });
    expect(sub.hard_limit_usd - use.total_usage / 100).toBe(4);
    const limited = caller(aToken({ unlimited_quota: false, remain_quota: 250_000, used_quota: 250_000 }));
    expect(keyAccount.subscription(limited).hard_limit_usd).toBe(1);
    expect(keyAccount.usage(limited).total_usage).toBe(50);
  });

  it("finds only the key's own calls, and says 404 otherwise", async () => {
    const { keyAccount, usage } = account();
    await expect(keyAccount.generation(caller(), 'chatcmpl-1')).rejects.toMatchObject({
      code: ErrorCode.NotFound,
      status: 404,
    });
    expect(usage.generation).toHaveBeenCalledWith(7, 'chatcmpl-1', 3);
  });
});
