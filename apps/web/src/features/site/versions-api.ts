import { pageSchema, versionViewSchema, type Page, type VersionView } from '@tollgate/contracts';
import { api } from '../../api/client';

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
