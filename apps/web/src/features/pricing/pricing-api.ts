import { queryOptions } from '@tanstack/react-query';
import { pricingResponseSchema, type ModelPricing } from '@tollgate/contracts';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

export type { ModelPricing };

/** `GET /api/pricing` (public): every model's USD prices per 1M tokens, ratings and flags. */
export async function fetchPricing(): Promise<ModelPricing[]> {
  return pricingResponseSchema.parse(await api.send<unknown>('GET', '/pricing')).data;
}

export const pricingQuery = queryOptions({
  queryKey: queryKeys.pricing,
  queryFn: fetchPricing,
  staleTime: 10 * 60_000,
});
