import {
  createAppQueryClient,
  createPersistOptions,
  refreshAfterRestore,
  removeOutdatedQueryCaches,
} from './query-client';

/** The app's one query client and its localStorage persistence. */
export const queryClient = createAppQueryClient();
export const persistOptions = createPersistOptions();
export const onCacheRestored = () => refreshAfterRestore(queryClient);
removeOutdatedQueryCaches();
