import { normalizeDecimal, priceKey, TOPICS, type BillingPrice } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';
import type { GroupRatio } from './group-ratio.entity';
import type { ModelPrice } from './model-price.entity';

const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/** A model's price as the compacted billing.price topic carries it, keyed `model:<name>`. */
export function modelPriceEvent(price: ModelPrice): OutgoingEvent {
  const value: Extract<BillingPrice, { kind: 'model' }> = {
    v: 1,
    kind: 'model',
    model: price.model,
    provider: price.provider,
    input_price: normalizeDecimal(price.inputPrice),
    output_price: normalizeDecimal(price.outputPrice),
    cached_input_price: normalizeDecimal(price.cachedInputPrice),
    context_window: price.contextWindow,
    updated_at: epochSeconds(price.updatedAt),
  };
  // Set only where priced: an entry without them reads as before they existed.
  if (price.cacheWritePrice !== null) value.cache_write_price = normalizeDecimal(price.cacheWritePrice);
  if (price.cacheWrite1hPrice !== null)
    value.cache_write_1h_price = normalizeDecimal(price.cacheWrite1hPrice);
  return { topic: TOPICS.billingPrice.name, key: priceKey.model(price.model), value };
}

/** A group's ratio as billing.price carries it, keyed `group:<name>`. */
export function groupRatioEvent(ratio: GroupRatio): OutgoingEvent {
  const value: BillingPrice = {
    v: 1,
    kind: 'group_ratio',
    group: ratio.group,
    ratio: normalizeDecimal(ratio.ratio),
    updated_at: epochSeconds(ratio.updatedAt),
  };
  return { topic: TOPICS.billingPrice.name, key: priceKey.group(ratio.group), value };
}
