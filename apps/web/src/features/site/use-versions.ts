import { useInfiniteQuery } from '@tanstack/react-query';
import { STATUS_STALE_MS } from '../../api/query-client';
import { queryKeys } from '../../api/query-keys';
import { fetchVersionPage, nextVersionPage } from './versions-api';

/** The changelog, one page at a time; releases change rarely, so it stays fresh as long as the status. */
export function useVersions() {
  return useInfiniteQuery({
    queryKey: queryKeys.versions,
    queryFn: ({ pageParam }) => fetchVersionPage(pageParam),
    initialPageParam: 1,
    getNextPageParam: nextVersionPage,
    staleTime: STATUS_STALE_MS,
  });
}
