import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

/**
 * One entry of `GET /api/versions` (SPEC §3: fields not shown): the release, its notes and date.
 * The text may come as `content` or `description`, the date as `created_at` or `release_date`.
 */
const versionSchema = z
  .object({
    id: z.union([z.number(), z.string()]).optional(),
    version: z.string(),
    title: z.string().optional(),
    content: z.string().optional(),
    description: z.string().optional(),
    created_at: z.number().optional(),
    release_date: z.union([z.number(), z.string()]).optional(),
  })
  .transform((v) => ({
    key: String(v.id ?? v.version),
    version: v.version,
    title: v.title ?? '',
    notes: v.content ?? v.description ?? '',
    date: v.release_date ?? v.created_at ?? null,
  }));
export type VersionEntry = z.output<typeof versionSchema>;

const versionsSchema = z.union([
  z.array(versionSchema),
  z.object({ items: z.array(versionSchema) }).transform((page) => page.items),
]);

export async function fetchVersions(): Promise<VersionEntry[]> {
  return versionsSchema.parse(await api.data<unknown>('GET', '/versions'));
}

export function useVersions() {
  return useQuery({ queryKey: queryKeys.versions, queryFn: fetchVersions, staleTime: 10 * 60_000 });
}
