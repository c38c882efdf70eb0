import { billingPriceV1, EVENT_SCHEMAS, identityUserV1, usageRecordedV1 } from './schemas';
import { ALL_TOPICS } from './topics';

describe('event schemas', () => {
  it('has a schema for every topic', () => {
    expect(Object.keys(EVENT_SCHEMAS).sort()).toEqual(ALL_TOPICS.map((t) => t.name).sort());
  });

  const usage = {
    v: 1,
    event_id: '4b8f5b2e-5a43-4b7a-9f3a-2a1c1d6e9f10',
    request_id: 'req-1',
    user_id: 1,
    token_id: 2,
    token_name: 'ci',
    channel_id: 3,
    group: 'default',
    model: 'gpt-4o-mini',
    upstream_model: 'gpt-4o-mini-2024-07-18',
    prompt_tokens: 12,
    completion_tokens: 5,
    cached_tokens: 0,
    quota: 4,
    price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
    latency_ms: 120,
    ttft_ms: null,
    is_stream: false,
    status: 'success',
    created_at: 1_763_800_000,
  };

  it('accepts a valid usage event', () => {
    expect(usageRecordedV1.parse(usage)).toEqual(usage);
  });

  it('refuses fractional quota and float prices', () => {
    expect(usageRecordedV1.safeParse({ ...usage, quota: 4.5 }).success).toBe(false);
    expect(usageRecordedV1.safeParse({ ...usage, price: { ...usage.price, input: 0.15 } }).success).toBe(
      false,
    );
  });

  it('refuses an unknown version', () => {
    expect(usageRecordedV1.safeParse({ ...usage, v: 2 }).success).toBe(false);
  });

  it('tells model prices from group ratios', () => {
    const ratio = billingPriceV1.parse({
      v: 1,
      kind: 'group_ratio',
      group: 'vip',
      ratio: '0.9',
      updated_at: 1,
    });
    expect(ratio.kind).toBe('group_ratio');
  });

  it('carries the dollar rate as a price entry of its own kind, exact decimal text', () => {
    const rate = { v: 1, kind: 'exchange_rate', pair: 'USD_RUB', rate: '92.5', updated_at: 1 };
    expect(billingPriceV1.parse(rate)).toEqual(rate);
    expect(billingPriceV1.safeParse({ ...rate, rate: 92.5 }).success).toBe(false);
    expect(billingPriceV1.safeParse({ ...rate, pair: 'EUR_RUB' }).success).toBe(false);
  });
});

describe('identity.user', () => {
  const user = {
    v: 1,
    id: 7,
    username: 'u',
    display_name: 'U',
    role: 1,
    status: 1,
    group: 'default',
    inviter_id: null,
    created_at: 1,
    updated_at: 1,
  };

  it('reads events written before the currency existed, and refuses a currency not sold', () => {
    expect(identityUserV1.parse(user).default_currency).toBeUndefined();
    expect(identityUserV1.parse({ ...user, default_currency: null }).default_currency).toBeNull();
    expect(identityUserV1.parse({ ...user, default_currency: 'USD' }).default_currency).toBe('USD');
    expect(identityUserV1.safeParse({ ...user, default_currency: 'EUR' }).success).toBe(false);
  });
});
