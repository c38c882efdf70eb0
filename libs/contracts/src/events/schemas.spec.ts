import { billingPriceV1, EVENT_SCHEMAS, identityUserV1 } from './schemas';
import { ALL_TOPICS } from './topics';

describe('event schemas', () => {
  it('has a schema for every topic', () => {
    expect(Object.keys(EVENT_SCHEMAS).sort()).toEqual(ALL_TOPICS.map((t) => t.name).sort());
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
