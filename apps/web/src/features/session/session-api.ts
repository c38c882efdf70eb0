import { queryOptions, useQuery } from '@tanstack/react-query';
import { selfUserSchema } from '@tollgate/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { useIsSignedIn } from './user-id-store';

/** SPEC §3 User as sign-in answers it: the fields the web app reads right after login. */
export interface SelfUser {
  id: number;
  username: string;
  display_name: string;
  email?: string | null;
}

/**
 * `GET /api/user/self`: the account with its balance in quota units, plus the linked OAuth
 * accounts when auth reports them (an empty or missing id means not linked).
 */
export const accountSchema = selfUserSchema.extend({
  github_id: z.string().nullish(),
  google_id: z.string().nullish(),
  discord_id: z.string().nullish(),
});
export type Account = z.infer<typeof accountSchema>;

export async function fetchSelf(): Promise<Account> {
  return accountSchema.parse(await api.data<unknown>('GET', '/user/self'));
}

export const selfQuery = queryOptions({ queryKey: queryKeys.self, queryFn: fetchSelf, staleTime: 30_000 });

/** The signed-in account (balance included); disabled for a visitor. */
export function useAccount() {
  const signedIn = useIsSignedIn();
  return useQuery({ ...selfQuery, enabled: signedIn });
}

/** `GET /api/user/logout`: ends the server session. */
export async function logout(): Promise<void> {
  await api.send('GET', '/user/logout');
}
