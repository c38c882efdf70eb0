import { priceKey, TOPICS, type BillingPrice, type ExchangeRate } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';

/** The rate in force, markup included, as billing.price carries it for relay, keyed `rate:USD_RUB`. */
export function exchangeRateEvent(rate: ExchangeRate): OutgoingEvent {
  const value: BillingPrice = {
    v: 1,
    kind: 'exchange_rate',
    pair: 'USD_RUB',
    rate: rate.usd_rub,
    updated_at: rate.updated_at,
  };
  return { topic: TOPICS.billingPrice.name, key: priceKey.rate('USD_RUB'), value };
}
