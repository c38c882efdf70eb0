import { useQuery } from '@tanstack/react-query';
import { pricingQuery } from './pricing-api';

export function usePricing() {
  return useQuery(pricingQuery);
}
