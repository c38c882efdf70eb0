import { queryOptions } from '@tanstack/react-query';
import { exchangeRateSchema } from '@tollgate/contracts';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { parseRate } from './money';

export interface ExchangeRate {
  /** Rubles per dollar × 10^6. */
  usdRubScaled: bigint;
  usdRub: string;
  stale: boolean;
}

export async function fetchExchangeRate(): Promise<ExchangeRate> {
  const data = exchangeRateSchema.parse(await api.data<unknown>('GET', '/exchange-rate'));
  const usdRubScaled = parseRate(data.usd_rub);
  if (usdRubScaled === null) throw new Error(`Unusable exchange rate: ${data.usd_rub}`);
  return { usdRubScaled, usdRub: data.usd_rub, stale: data.stale };
}

/** `GET /api/exchange-rate`, kept as a string in the cache: a BigInt cannot be persisted as JSON. */
export const exchangeRateQuery = queryOptions({
  queryKey: queryKeys.exchangeRate,
  queryFn: async () => {
    const rate = await fetchExchangeRate();
    return { usdRubScaled: rate.usdRubScaled.toString(), usdRub: rate.usdRub, stale: rate.stale };
  },
  staleTime: 10 * 60_000,
});
