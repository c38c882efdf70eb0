import { QueryObserver } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/react-query-persist-client';
import {
  NOTICE_STALE_MS,
  PERSIST_MAX_AGE_MS,
  QUERY_CACHE_STORAGE_KEY,
  STATUS_STALE_MS,
  createAppQueryClient,
  createPersistOptions,
  readAgain,
  refreshAfterRestore,
  removeOutdatedQueryCaches,
} from './query-client';
import { queryKeys } from './query-keys';
import { noticeQuery, statusQuery } from '../features/system/system-api';

/**
 * The persist client ships its own (older) query-core, whose QueryClient type differs from
 * react-query's by its private fields only; at run time it uses just the public methods.
 */
type PersistedClient = Parameters<typeof persistQueryClientSave>[0]['queryClient'];
const asPersisted = (client: ReturnType<typeof createAppQueryClient>) => client as unknown as PersistedClient;

const NOW = new Date('2025-03-01T12:00:00Z').getTime();

async function saveStatus(data: unknown): Promise<void> {
  const client = createAppQueryClient();
  client.setQueryData(queryKeys.status, data);
  await persistQueryClientSave({ queryClient: asPersisted(client), ...createPersistOptions() });
  jest.advanceTimersByTime(1000); // the persister writes at most once a second
}

async function restoredStatus(): Promise<unknown> {
  const client = createAppQueryClient();
  await persistQueryClientRestore({ queryClient: asPersisted(client), ...createPersistOptions() });
  return client.getQueryData(queryKeys.status);
}

describe('query cache', () => {
  beforeEach(() => {
    localStorage.clear();
    jest.useFakeTimers({ now: NOW, doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
  });
  afterEach(() => jest.useRealTimers());

  it('is persisted under a versioned key and restored', async () => {
    await saveStatus({ server_address: 'https://api.example' });
    expect(QUERY_CACHE_STORAGE_KEY).toMatch(/\.v\d+$/);
    expect(localStorage.getItem(QUERY_CACHE_STORAGE_KEY)).toContain('https://api.example');
    await expect(restoredStatus()).resolves.toEqual({ server_address: 'https://api.example' });
  });

  it('gives back the space of copies saved under an earlier version, keeping the current one', async () => {
    await saveStatus({ server_address: 'https://api.example' });
    localStorage.setItem('tollgate.query_cache.v1', '{"clientState":{}}');
    localStorage.setItem('tollgate.language', 'en');
    removeOutdatedQueryCaches();
    expect(localStorage.getItem('tollgate.query_cache.v1')).toBeNull();
    expect(localStorage.getItem('tollgate.language')).toBe('en');
    expect(localStorage.getItem(QUERY_CACHE_STORAGE_KEY)).toContain('https://api.example');
  });

  it('is dropped when older than 24 hours', async () => {
    await saveStatus({ server_address: 'https://old.example' });
    jest.setSystemTime(NOW + PERSIST_MAX_AGE_MS + 1);
    await expect(restoredStatus()).resolves.toBeUndefined();
    expect(localStorage.getItem(QUERY_CACHE_STORAGE_KEY)).toBeNull();
  });

  it('is still used just before 24 hours', async () => {
    await saveStatus({ server_address: 'https://api.example' });
    jest.setSystemTime(NOW + PERSIST_MAX_AGE_MS - 60_000);
    await expect(restoredStatus()).resolves.toEqual({ server_address: 'https://api.example' });
  });

  it('keeps the status fresh for 10 minutes and the notice for 30', () => {
    expect(statusQuery.staleTime).toBe(10 * 60_000);
    expect(noticeQuery.staleTime).toBe(30 * 60_000);
    const client = createAppQueryClient();
    client.setQueryData(queryKeys.status, { any: 'status' });
    const query = () => client.getQueryCache().find({ queryKey: queryKeys.status })!;
    jest.setSystemTime(NOW + STATUS_STALE_MS - 1);
    expect(query().isStaleByTime(STATUS_STALE_MS)).toBe(false);
    jest.setSystemTime(NOW + STATUS_STALE_MS + 1);
    expect(query().isStaleByTime(STATUS_STALE_MS)).toBe(true);
    expect(query().isStaleByTime(NOTICE_STALE_MS)).toBe(false);
  });

  it('has the restored account read again, though its copy is younger than its 30 s of freshness', async () => {
    const saved = createAppQueryClient();
    saved.setQueryData(queryKeys.self, { id: 5, email: 'old@example.com' });
    await persistQueryClientSave({ queryClient: asPersisted(saved), ...createPersistOptions() });
    jest.advanceTimersByTime(1000);

    const client = createAppQueryClient();
    await persistQueryClientRestore({ queryClient: asPersisted(client), ...createPersistOptions() });
    expect(client.getQueryState(queryKeys.self)?.isInvalidated).toBe(false);
    await refreshAfterRestore(client);
    expect(client.getQueryState(queryKeys.self)?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.status)).toBeUndefined();
  });
});

describe('reading a query again after a change', () => {
  const key = ['admin', 'channels'];

  /** A list whose first read is held open until released; later reads answer at once. */
  function aListBeingLoaded(client: ReturnType<typeof createAppQueryClient>) {
    const server = { rows: ['existing'] };
    let releaseFirstRead: (() => void) | undefined;
    const queryFn = () => {
      const seen = [...server.rows];
      if (releaseFirstRead) return Promise.resolve(seen);
      return new Promise<string[]>((resolve) => (releaseFirstRead = () => resolve(seen)));
    };
    const unsubscribe = new QueryObserver(client, { queryKey: key, queryFn }).subscribe(() => undefined);
    return { server, releaseFirstRead: () => releaseFirstRead!(), unsubscribe };
  }

  it('shows the change when the list was still on its first read, which left before the change landed', async () => {
    const client = createAppQueryClient();
    const list = aListBeingLoaded(client);
    list.server.rows.push('added'); // the save lands while the first read is under way

    const reading = readAgain(client, key);
    list.releaseFirstRead(); // the first read answers after the save, with what it saw before it
    await reading;

    expect(client.getQueryData(key)).toEqual(['existing', 'added']);
    list.unsubscribe();
  });

  it('reads a list that already has data again', async () => {
    const client = createAppQueryClient();
    const list = aListBeingLoaded(client);
    list.releaseFirstRead();
    await client.getQueryCache().find({ queryKey: key })!.fetch(); // the first read's own promise
    expect(client.getQueryData(key)).toEqual(['existing']);
    list.server.rows.push('added');

    await readAgain(client, key);

    expect(client.getQueryData(key)).toEqual(['existing', 'added']);
    list.unsubscribe();
  });
});
