import { priceKey, type BillingPrice, type CatalogChannel } from '@tollgate/contracts';
import type { CallerAccess } from '../../src/access/caller-access';
import type { ModelAdmissionDeps } from '../../src/pipeline/call-lifecycle';
import { PriceBook } from '../../src/pricing/price-book';
import { ChannelRouter } from '../../src/routing';
import { aChannel } from './fixtures';

/** A key's rights that let it call every model. */
export const allowsEveryModel = { assertModelAllowed: () => undefined } as unknown as CallerAccess;

function keyOf(price: BillingPrice): string {
  switch (price.kind) {
    case 'model':
      return priceKey.model(price.model);
    case 'group_ratio':
      return priceKey.group(price.group);
    case 'exchange_rate':
      return priceKey.rate(price.pair);
  }
}

/**
 * What admitting a model needs, as relay composes it, for a key that may call any model: the price
 * book over `prices` and a channel router over `channels`; by default one channel of the default
 * group that lists every priced model, so each priced model is the default group's.
 */
export function anAdmission(
  prices: readonly BillingPrice[],
  channels: readonly CatalogChannel[] = [
    aChannel({
      models: prices.flatMap((price) => (price.kind === 'model' ? [price.model] : [])),
    }),
  ],
): ModelAdmissionDeps {
  const entries = new Map(prices.map((price) => [keyOf(price), price]));
  return {
    access: allowsEveryModel,
    prices: new PriceBook({ get: (key) => entries.get(key) }),
    channels: new ChannelRouter(new Map(channels.map((channel) => [String(channel.id), channel]))),
  };
}
