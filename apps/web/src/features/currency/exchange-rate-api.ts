import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { parseRate } from './money';

/** `GET /api/exchange-rate`: rubles per dollar as an exact decimal, where it came from, whether it is stale. */
const exchangeRateSchema = z.object({
  usd_rub: z.union([z.string(), z.number()]),
  updated_at: z.union([z.number(), z.string()]).optional(),
  source: z.string().optional(),
  stale: z.boolean().optional(),
});

export interface ExchangeRate {
  /** Rubles per dollar × 10^6. */
  usdRubScaled: bigint;
  usdRub: string;
  stale: boolean;
}

export async function fetchExchangeRate(): Promise<ExchangeRate> {
  const data = exchangeRateSchema.parse(await api.data<unknown>('GET', '/exchange-rate'));
  const usdRubScaled = parseRate(data.usd_rub);
  if (usdRubScaled === null) throw new Error(`Unusable exchange rate: ${String(data.usd_rub)}`);
  return { usdRubScaled, usdRub: String(data.usd_rub), stale: data.stale ?? false };
}

/** Kept as a string in the cache: a BigInt cannot be persisted as JSON. */
export const exchangeRateQuery = queryOptions({
  queryKey: queryKeys.exchangeRate,
  queryFn: async () => {
    const rate = await fetchExchangeRate();
    return { usdRubScaled: rate.usdRubScaled.toString(), usdRub: rate.usdRub, stale: rate.stale };
  },
  staleTime: 10 * 60_000,
});

export function useExchangeRate() {
  const query = useQuery(exchangeRateQuery);
  const usdRubScaled = query.data ? BigInt(query.data.usdRubScaled) : null;
  return { ...query, usdRubScaled };
}
