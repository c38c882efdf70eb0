import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { queryKeys } from './query-keys';

/** Bump when cached shapes change: the old entry is then neither read nor kept. */
export const QUERY_CACHE_VERSION = 'v2';
const QUERY_CACHE_KEY_PREFIX = 'tollgate.query_cache.';
export const QUERY_CACHE_STORAGE_KEY = `${QUERY_CACHE_KEY_PREFIX}${QUERY_CACHE_VERSION}`;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** SPEC §7/§9 lifetimes. */
export const STATUS_STALE_MS = 10 * MINUTE;
export const NOTICE_STALE_MS = 30 * MINUTE;
/**
 * SPEC §3/§9 give both 24 hours and one week for the persisted maximum age; we keep the shorter,
 * so a restored cache is never older than a day. Queries live in memory as long as they may be
 * persisted (a shorter gcTime would drop them from the saved copy).
 */
export const PERSIST_MAX_AGE_MS = 24 * HOUR;

export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The API client already retries what SPEC §8 says to retry; a second layer would multiply it.
      queries: { retry: false, gcTime: PERSIST_MAX_AGE_MS, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/**
 * After the saved copy is restored: the account is read again once. The copy is written at most once a
 * second, so one saved just before a reload may predate the last change (a new e-mail, a top-up), and
 * the account would otherwise be served from it for its 30 s of freshness.
 */
export function refreshAfterRestore(client: QueryClient): Promise<void> {
  return readAgain(client, queryKeys.self);
}

/**
 * Reads the queries under `queryKey` again after something changed on the server. A read already
 * under way may have left before the change landed, and `invalidateQueries` alone hands that read
 * back when the query has no data yet (TanStack Query cancels a running fetch only when there is
 * data to fall back to): a list on its first load would show the state before the change as fresh.
 * So what is running is cancelled first, and the new read starts after the change.
 */
export async function readAgain(client: QueryClient, queryKey: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey });
  await client.invalidateQueries({ queryKey });
}

/** Copies saved under an earlier version are never read again, so their space is given back. */
export function removeOutdatedQueryCaches(storage: Storage = localStorage): void {
  const outdated: string[] = [];
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (key?.startsWith(QUERY_CACHE_KEY_PREFIX) && key !== QUERY_CACHE_STORAGE_KEY) outdated.push(key);
  }
  outdated.forEach((key) => storage.removeItem(key));
}

export function createQueryPersister(storage: Storage = localStorage) {
  return createSyncStoragePersister({ storage, key: QUERY_CACHE_STORAGE_KEY, throttleTime: 1000 });
}

export function createPersistOptions(
  storage: Storage = localStorage,
): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister: createQueryPersister(storage),
    maxAge: PERSIST_MAX_AGE_MS,
    buster: QUERY_CACHE_VERSION,
    dehydrateOptions: { shouldDehydrateQuery: (query) => query.state.status === 'success' },
  };
}
