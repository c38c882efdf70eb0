import { useQueries } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import { fetchUser } from './admin-api';

/**
 * The usernames of `ids`, read one user at a time as the user's page reads it (a page of audit rows
 * names a few users). An id that cannot be read (a deleted user) is left out, as is one still loading.
 */
export function useUserNames(ids: readonly number[]): ReadonlyMap<number, string> {
  const unique = [...new Set(ids)];
  const users = useQueries({
    queries: unique.map((id) => ({
      queryKey: queryKeys.adminUser(id),
      queryFn: () => fetchUser(id),
      retry: false,
      staleTime: 5 * 60_000,
    })),
  });
  const names = new Map<number, string>();
  users.forEach((user, index) => {
    if (user.data) names.set(unique[index]!, user.data.username);
  });
  return names;
}
