import {
  ChannelStatus,
  priceKey,
  type BillingPrice,
  type CatalogChannel,
  type IdentityUser,
} from '@tollgate/contracts';
import type { Caller } from '../access/caller-access';
import type { CostTerms } from '../pricing/call-cost';
import type { Quote } from '../pricing/price-book';
import { namesProvider } from './provider-prefix';
import { tokenPrices, type TokenPrices } from './token-prices';

/** A model a key may call, with what the catalogue says about it. */
export interface CallableModel {
  name: string;
  provider: string;
  /** 0 when the catalogue does not say. */
  contextWindow: number;
  /** When its price last changed (epoch seconds). */
  updatedAt: number;
  /** For a key's alias, listed under the name asked: the catalogue's model it is served on. */
  servedBy?: string;
  /** What a token costs this caller (group ratio applied), in the caller's currency. */
  pricing?: TokenPrices;
}

export interface ModelCatalogue {
  channels: { entries(): Iterable<[string, CatalogChannel]> };
  prices: { get(key: string): BillingPrice | undefined };
  /** The model's prices for a group, as calls are charged (PriceBook.quote). */
  quotes: { quote(model: string, group: string): Quote };
  /** The currency (and rate) a user is told costs in. */
  costTerms: (user: IdentityUser) => CostTerms;
}

/**
 * The models a key may call, sorted by name: served by an enabled channel of its group, priced in the
 * catalogue (an unpriced model cannot be billed, so it is not offered), and on the key's model list
 * when it has one. The key's aliases are listed under the name a client asks for, with the facts of the
 * model they are served on; an alias whose model the key cannot call is not, nor is a model an alias
 * shadows with one the key cannot call (asking for it would be refused). Read from memory only: UIs
 * ask often.
 */
export function modelsForCaller(catalogue: ModelCatalogue, caller: Caller): CallableModel[] {
  const models = callableModels(catalogue, caller);
  const aliases = caller.token?.model_aliases;
  if (aliases === undefined || Object.keys(aliases).length === 0) return models;
  const byName = new Map(models.map((model) => [model.name, model]));
  const listed = new Map(byName);
  for (const [asked, served] of Object.entries(aliases)) {
    const model = byName.get(served);
    if (model === undefined) listed.delete(asked);
    else listed.set(asked, { ...model, name: asked, servedBy: model.name });
  }
  return [...listed.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The model of a caller's list a name means, as a call would take it: by its name, else an OpenRouter
 * name (`openai/gpt-4o-mini`) whose prefix is the model's provider (a key's alias is no catalogue model
 * and takes no prefix, as in servedModel).
 */
export function findCallableModel(models: readonly CallableModel[], name: string): CallableModel | undefined {
  const exact = models.find((model) => model.name === name);
  const slash = name.indexOf('/');
  if (exact !== undefined || slash < 0) return exact;
  const prefix = name.slice(0, slash);
  const plain = name.slice(slash + 1);
  return models.find(
    (model) => model.name === plain && model.servedBy === undefined && namesProvider(prefix, model.provider),
  );
}

/** The models the key may call by their own names. */
function callableModels(catalogue: ModelCatalogue, caller: Caller): CallableModel[] {
  const names = new Set<string>();
  for (const [, channel] of catalogue.channels.entries()) {
    if (channel.status !== ChannelStatus.Enabled || !channel.groups.includes(caller.group)) continue;
    for (const model of channel.models) names.add(model);
  }
  const { token } = caller;
  const models: CallableModel[] = [];
  const terms = catalogue.costTerms(caller.user);
  for (const name of [...names].sort()) {
    if (token !== null && token.model_limits_enabled && !token.model_limits.includes(name)) continue;
    const price = catalogue.prices.get(priceKey.model(name));
    if (price?.kind !== 'model') continue;
    models.push({
      name,
      provider: price.provider,
      contextWindow: price.context_window,
      updatedAt: price.updated_at,
      pricing: tokenPrices(catalogue.quotes.quote(name, caller.group).price, terms),
    });
  }
  return models;
}
