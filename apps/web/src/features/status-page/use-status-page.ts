import { useQuery } from '@tanstack/react-query';
import { fetchStatusPage, statusPageQueryKey } from './status-page-api';

const MINUTE = 60_000;

/** Read again every minute while the page is open, so a new incident shows without a reload. */
export function useStatusPage() {
  return useQuery({
    queryKey: statusPageQueryKey,
    queryFn: fetchStatusPage,
    staleTime: MINUTE,
    refetchInterval: MINUTE,
  });
}
