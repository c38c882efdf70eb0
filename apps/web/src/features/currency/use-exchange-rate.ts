import { useQuery } from '@tanstack/react-query';
import { exchangeRateQuery } from './exchange-rate-api';

export function useExchangeRate() {
  const query = useQuery(exchangeRateQuery);
  const usdRubScaled = query.data ? BigInt(query.data.usdRubScaled) : null;
  return { ...query, usdRubScaled };
}
