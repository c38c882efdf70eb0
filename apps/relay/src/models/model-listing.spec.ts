import type { BillingPrice, CatalogChannel } from '@tollgate/contracts';
import { aChannel, aModelPrice, aToken, aUser } from '../../test/support/fixtures';
import { modelsForCaller } from './model-listing';

const channels = new Map<string, CatalogChannel>([
  ['1', aChannel({ id: 1, models: ['gpt-4o-mini', 'gpt-4o'], groups: ['default'] })],
  ['2', aChannel({ id: 2, models: ['claude-sonnet-4-5'], groups: ['default'], status: 2 })],
  ['3', aChannel({ id: 3, models: ['private-model'], groups: ['enterprise-acme'] })],
  ['4', aChannel({ id: 4, models: ['unpriced'], groups: ['default'] })],
]);
const prices = new Map<string, BillingPrice>(
  ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4-5', 'private-model'].map((m) => [`model:${m}`, aModelPrice(m)]),
);
const catalogue = { channels, prices };

describe('modelsForCaller', () => {
  it('lists priced models of enabled channels in the caller group, sorted, with their catalogue facts', () => {
    const caller = { token: aToken(), user: aUser(7), group: 'default' };
    expect(modelsForCaller(catalogue, caller)).toEqual([
      { name: 'gpt-4o', provider: 'openai', contextWindow: 128_000, updatedAt: 1_700_000_000 },
      { name: 'gpt-4o-mini', provider: 'openai', contextWindow: 128_000, updatedAt: 1_700_000_000 },
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
});
