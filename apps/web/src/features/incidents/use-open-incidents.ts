import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import { fetchRecentIncidents, openIncidents } from './incidents-api';

const MINUTE = 60_000;

/** The incidents not yet resolved; read again every few minutes so a notice appears without a reload. */
export function useOpenIncidents() {
  return useQuery({
    queryKey: queryKeys.incidents,
    queryFn: fetchRecentIncidents,
    staleTime: MINUTE,
    refetchInterval: 5 * MINUTE,
    select: (page) => openIncidents(page.items),
  });
}
