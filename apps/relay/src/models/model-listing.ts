import { ChannelStatus, priceKey, type BillingPrice, type CatalogChannel } from '@tollgate/contracts';
import type { Caller } from '../access/caller-access';

/** A model a key may call, with what the catalogue says about it. */
export interface CallableModel {
  name: string;
  provider: string;
  /** 0 when the catalogue does not say. */
  contextWindow: number;
  /** When its price last changed (epoch seconds). */
  updatedAt: number;
}

export interface ModelCatalogue {
  channels: { entries(): Iterable<[string, CatalogChannel]> };
  prices: { get(key: string): BillingPrice | undefined };
}

/**
 * The models a key may call, sorted by name: served by an enabled channel of its group, priced in the
 * catalogue (an unpriced model cannot be billed, so it is not offered), and on the key's model list
 * when it has one.
 */
export function modelsForCaller(catalogue: ModelCatalogue, caller: Caller): CallableModel[] {
  const names = new Set<string>();
  for (const [, channel] of catalogue.channels.entries()) {
    if (channel.status !== ChannelStatus.Enabled || !channel.groups.includes(caller.group)) continue;
    for (const model of channel.models) names.add(model);
  }
  const { token } = caller;
  const models: CallableModel[] = [];
  for (const name of [...names].sort()) {
    if (token !== null && token.model_limits_enabled && !token.model_limits.includes(name)) continue;
    const price = catalogue.prices.get(priceKey.model(name));
    if (price?.kind !== 'model') continue;
    models.push({
      name,
      provider: price.provider,
      contextWindow: price.context_window,
      updatedAt: price.updated_at,
    });
  }
  return models;
}
