import type { BillingPrice, CatalogChannel, IdentityUser } from '@tollgate/contracts';
import { aChannel, aModelPrice, aToken, aUser } from '../../test/support/fixtures';
import { costTerms } from '../pricing/call-cost';
import { PriceBook } from '../pricing/price-book';
import { findCallableModel, modelsForCaller } from './model-listing';

const channels = new Map<string, CatalogChannel>([
  ['1', aChannel({ id: 1, models: ['gpt-4o-mini', 'gpt-4o'], groups: ['default'] })],
  ['2', aChannel({ id: 2, models: ['claude-sonnet-4-5'], groups: ['default'], status: 2 })],
  ['3', aChannel({ id: 3, models: ['private-model'], groups: ['enterprise-acme'] })],
  ['4', aChannel({ id: 4, models: ['unpriced'], groups: ['default'] })],
]);
const prices = new Map<string, BillingPrice>(
  ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4-5', 'private-model'].map((m) => [`model:${m}`, aModelPrice(m)]),
);
prices.set('group:vip', {
  v: 1,
  kind: 'group_ratio',
  group: 'vip',
  ratio: '0.75',
  updated_at: 1_700_000_000,
});
/** Costs told in the user's currency, rubles at 95.5 a dollar; dollars to a user who never chose. */
const catalogue = {
  channels,
  prices,
  quotes: new PriceBook(prices),
  costTerms: (user: IdentityUser) => costTerms(user.default_currency ?? 'USD', '95.5'),
};
/** aModelPrice's $0.15, $0.6 and $0.075 per 1M tokens, per token. */
const pricing = {
  prompt: '0.00000015',
  completion: '0.0000006',
  input_cache_read: '0.000000075',
  currency: 'USD',
};

describe('modelsForCaller', () => {
  it('lists priced models of enabled channels in the caller group, sorted, with their catalogue facts', () => {
    const caller = { token: aToken(), user: aUser(7), group: 'default' };
    expect(modelsForCaller(catalogue, caller)).toEqual([
      { name: 'gpt-4o', provider: 'openai', contextWindow: 128_000, updatedAt: 1_700_000_000, pricing },
      { name: 'gpt-4o-mini', provider: 'openai', contextWindow: 128_000, updatedAt: 1_700_000_000, pricing },
    ]);
  });

  it('shows a private group its own channels and applies the key model list', () => {
    const enterprise = { token: aToken(), user: aUser(7), group: 'enterprise-acme' };
    expect(modelsForCaller(catalogue, enterprise).map((m) => m.name)).toEqual(['private-model']);
    const limited = {
      token: aToken({ model_limits_enabled: true, model_limits: ['gpt-4o'] }),
      user: aUser(7),
      group: 'default',
    };
    expect(modelsForCaller(catalogue, limited).map((m) => m.name)).toEqual(['gpt-4o']);
  });

  it("lists a key's aliases under the names asked, with the facts of the model each is served on", () => {
    const caller = {
      token: aToken({
        model_aliases: {
          'gpt-4': 'gpt-4o',
          // Served on a model the key may not call: asking for it would be refused, so it is not listed.
          'claude-3': 'claude-sonnet-4-5',
          // Shadows a model the key could call with one it cannot: refused too, so neither is listed.
          'gpt-4o-mini': 'unpriced',
        },
      }),
      user: aUser(7),
      group: 'default',
    };
    expect(modelsForCaller(catalogue, caller)).toEqual([
      {
        name: 'gpt-4',
        servedBy: 'gpt-4o',
        provider: 'openai',
        contextWindow: 128_000,
        updatedAt: 1_700_000_000,
        pricing,
      },
      { name: 'gpt-4o', provider: 'openai', contextWindow: 128_000, updatedAt: 1_700_000_000, pricing },
    ]);
  });

  it("applies the key's model list to the model an alias is served on, not to the name asked", () => {
    const limited = {
      token: aToken({
        model_limits_enabled: true,
        model_limits: ['gpt-4o-mini'],
        model_aliases: { fast: 'gpt-4o-mini', big: 'gpt-4o' },
      }),
      user: aUser(7),
      group: 'default',
    };
    expect(modelsForCaller(catalogue, limited).map((m) => m.name)).toEqual(['fast', 'gpt-4o-mini']);
  });

  it("prices each model per token for this caller, group ratio applied, in the caller's currency, as exact decimals", () => {
    const vip = { token: aToken(), user: aUser(7, { group: 'vip' }), group: 'vip' };
    channels.set('5', aChannel({ id: 5, models: ['gpt-4o'], groups: ['vip'] }));
    try {
      expect(modelsForCaller(catalogue, vip)[0]!.pricing).toEqual({
        prompt: '0.0000001125',
        completion: '0.00000045',
        input_cache_read: '0.00000005625',
        currency: 'USD',
      });
      const rubles = { ...vip, user: aUser(7, { group: 'vip', default_currency: 'RUB' }) };
      expect(modelsForCaller(catalogue, rubles)[0]!.pricing).toEqual({
        prompt: '0.00001074375',
        completion: '0.000042975',
        input_cache_read: '0.000005371875',
        currency: 'RUB',
      });
    } finally {
      channels.delete('5');
    }
  });
});

describe('findCallableModel', () => {
  const model = (name: string, provider: string, servedBy?: string) => ({
    name,
    provider,
    contextWindow: 0,
    updatedAt: 0,
    ...(servedBy === undefined ? {} : { servedBy }),
  });
  const models = [
    model('deepseek-ai/DeepSeek-V3', 'siliconflow'),
    model('gpt-4', 'openai', 'gpt-4o'),
    model('gpt-4o', 'openai'),
    model('grok-4', 'xai'),
  ];

  it('finds a model by its name, or by its OpenRouter name when the prefix is its provider', () => {
    expect(findCallableModel(models, 'gpt-4o')?.name).toBe('gpt-4o');
    expect(findCallableModel(models, 'openai/gpt-4o')?.name).toBe('gpt-4o');
    expect(findCallableModel(models, 'x-ai/grok-4')?.name).toBe('grok-4');
    expect(findCallableModel(models, 'deepseek-ai/DeepSeek-V3')?.name).toBe('deepseek-ai/DeepSeek-V3');
  });

  it("finds nothing for another provider's prefix, nor for a prefixed alias (a call would refuse both)", () => {
    expect(findCallableModel(models, 'anthropic/gpt-4o')).toBeUndefined();
    expect(findCallableModel(models, 'openai/gpt-4')).toBeUndefined();
    expect(findCallableModel(models, 'gpt-5')).toBeUndefined();
  });
});
