import type { QueryClient } from '@tanstack/react-query';
import type { Persister } from '@tanstack/react-query-persist-client';
import { clearStoredUserId } from './user-id-store';

/** SPEC §4: signing out forgets the user, the stored id, the query cache and its persisted copy. */
export async function forgetSession(queryClient: QueryClient, persister: Persister): Promise<void> {
  clearStoredUserId();
  queryClient.clear();
  await persister.removeClient();
}
