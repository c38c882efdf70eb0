import type { BillingPrice, CatalogChannel } from '@tollgate/contracts';
import type { Caller } from '../access/caller-access';

const CHANNEL_ENABLED = 1;

export interface OpenAiModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

export interface ModelCatalogue {
  channels: { entries(): Iterable<[string, CatalogChannel]> };
  prices: { get(key: string): BillingPrice | undefined };
}

/**
 * The models a key may call: served by an enabled channel of its group, priced in the catalogue (an
 * unpriced model cannot be billed, so it is not offered), and on the key's model list when it has one.
 */
export function modelsForCaller(catalogue: ModelCatalogue, caller: Caller): OpenAiModel[] {
  const names = new Set<string>();
  for (const [, channel] of catalogue.channels.entries()) {
    if (channel.status !== CHANNEL_ENABLED || !channel.groups.includes(caller.group)) continue;
    for (const model of channel.models) names.add(model);
  }
  const { token } = caller;
  const models: OpenAiModel[] = [];
  for (const name of [...names].sort()) {
    if (token.model_limits_enabled && !token.model_limits.includes(name)) continue;
    const price = catalogue.prices.get(`model:${name}`);
    if (price?.kind !== 'model') continue;
    models.push({ id: name, object: 'model', created: price.updated_at, owned_by: price.provider });
  }
  return models;
}
