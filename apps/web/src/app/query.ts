import { createAppQueryClient, createPersistOptions } from '../api/query-client';

/** The app's one query client and its localStorage persistence. */
export const queryClient = createAppQueryClient();
export const persistOptions = createPersistOptions();
