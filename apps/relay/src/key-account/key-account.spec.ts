import { ErrorCode, type GenerationResult } from '@tollgate/contracts';
import { aToken, aUser } from '../../test/support/fixtures';
import { IN_DOLLARS, type CostTerms } from '../pricing/call-cost';
import { KeyAccount } from './key-account';

const spent = { today_quota: 1_000, today_requests: 2, month_quota: 50_000, month_requests: 40 };

/** A call of the key's as billing logged it: 41 quota units, $0.000082. */
const aLoggedCall = {
  id: 'msg_1',
  request_id: 'req-1',
  model: 'claude-haiku-4-5',
  upstream_model: 'claude-haiku-4-5',
  token_id: 3,
  created_at: 1,
  prompt_tokens: 1,
  completion_tokens: 16,
  cached_tokens: 0,
  quota: 41,
  latency_ms: 5,
  ttft_ms: null,
  is_stream: false,
  status: 'success',
  finish_reason: 'stop',
};

function account(
  balance = { quota: 2_000_000, used_quota: 500_000 },
  terms: CostTerms = IN_DOLLARS,
  logged: GenerationResult = aLoggedCall,
) {
  const usage = {
    keyUsage: jest.fn(async () => spent),
    generation: jest.fn(async (_user: number, id: string) => (id === logged.id ? logged : undefined)),
  };
  const keyAccount = new KeyAccount({
    balances: { balanceOf: () => balance },
    usage,
    groupRateLimits: () => ({ default: { rpm: 60, tpm: 0, concurrency: 5 } }),
    costTerms: () => terms,
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

  it('tells the prompt-cache writes for 5 minutes and for an hour apart, as billing logged them, and none when billing did not say', async () => {
    const wrote = {
      ...aLoggedCall,
      prompt_tokens: 3_000,
      cache_write_5m_tokens: 500,
      cache_write_1h_tokens: 1_500,
    };
    const { data } = await account(undefined, IN_DOLLARS, wrote).keyAccount.generation(caller(), 'msg_1');
    expect(data).toMatchObject({
      tokens_prompt: 3_000,
      tokens_cached: 0,
      tokens_cache_write_5m: 500,
      tokens_cache_write_1h: 1_500,
    });
    const before = await account().keyAccount.generation(caller(), 'msg_1');
    expect(before.data).toMatchObject({ tokens_cache_write_5m: 0, tokens_cache_write_1h: 0 });
  });

  it("tells a call's cost in the account's currency, as its answer's usage.cost did, with the dollars beside it", async () => {
    const { keyAccount } = account(undefined, { currency: 'RUB', rubPerUsd: '90' });
    const { data } = await keyAccount.generation(caller(), 'msg_1');
    expect(data).toMatchObject({ cost: 0.00738, cost_currency: 'RUB', cost_usd: 0.000082, cost_quota: 41 });
    const inDollars = await account().keyAccount.generation(caller(), 'msg_1');
    expect(inDollars.data).toMatchObject({ cost: 0.000082, cost_currency: 'USD', cost_usd: 0.000082 });
  });
});
