import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import type { Account } from './account-schema';

/** SPEC §3 User as sign-in answers it: the fields the web app reads right after login. */
export interface SelfUser {
  id: number;
  username: string;
  display_name: string;
  email?: string | null;
}

export type { Account } from './account-schema';

/**
 * `GET /api/user/self`. The schema (zod and the contracts) is fetched with the answer, not with
 * the shell, so a visitor's first paint does not carry it.
 */
export async function fetchSelf(): Promise<Account> {
  const [data, { accountSchema }] = await Promise.all([
    api.data<unknown>('GET', '/user/self'),
    import('./account-schema'),
  ]);
  return accountSchema.parse(data);
}

export const selfQuery = queryOptions({ queryKey: queryKeys.self, queryFn: fetchSelf, staleTime: 30_000 });

/** `GET /api/user/logout`: ends the server session. */
export async function logout(): Promise<void> {
  await api.send('GET', '/user/logout');
}
