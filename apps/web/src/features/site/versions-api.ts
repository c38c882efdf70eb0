import { useInfiniteQuery } from '@tanstack/react-query';
import { pageSchema, type Page } from '@tollgate/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { STATUS_STALE_MS } from '../../api/query-client';

/** One changelog entry exactly as admin's `GET /api/versions` serves it (its `VersionView`). */
export const versionSchema = z.object({
  id: z.number().int().positive(),
  version: z.string(),
  title: z.string(),
  /** Markdown. */
  content: z.string(),
  /** `YYYY-MM-DD`, a calendar day without a time zone. */
  release_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  created_time: z.number().int(),
  updated_time: z.number().int(),
});
export type Version = z.infer<typeof versionSchema>;

const versionPageSchema = pageSchema(versionSchema);

/** Admin's default page size for the changelog. */
export const CHANGELOG_PAGE_SIZE = 20;

/** `GET /api/versions?p&page_size`: newest release first. */
export async function fetchVersionPage(page: number): Promise<Page<Version>> {
  const data = await api.data<unknown>('GET', '/versions', {
    query: { p: page, page_size: CHANGELOG_PAGE_SIZE },
  });
  return versionPageSchema.parse(data);
}

export const nextVersionPage = (last: Page<Version>): number | undefined =>
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
