import { useInfiniteQuery } from '@tanstack/react-query';
import { pageSchema, versionViewSchema, type Page, type VersionView } from '@tollgate/contracts';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { STATUS_STALE_MS } from '../../api/query-client';

const versionPageSchema = pageSchema(versionViewSchema);

/** Admin's default page size for the changelog. */
export const CHANGELOG_PAGE_SIZE = 20;

/** `GET /api/versions?p&page_size`: newest release first. */
export async function fetchVersionPage(page: number): Promise<Page<VersionView>> {
  const data = await api.data<unknown>('GET', '/versions', {
    query: { p: page, page_size: CHANGELOG_PAGE_SIZE },
  });
  return versionPageSchema.parse(data);
}

export const nextVersionPage = (last: Page<VersionView>): number | undefined =>
  last.page * last.page_size < last.total ? last.page + 1 : undefined;

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
