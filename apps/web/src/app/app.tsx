import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { useMemo } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { deviceForUserAgent } from './device';
import { onCacheRestored, persistOptions, queryClient } from '../api/app-query';
import { buildRoutes } from './router';

/** The user-agent is checked once, at start-up, to pick the route set (SPEC §2). */
export function App() {
  const router = useMemo(() => createBrowserRouter(buildRoutes(deviceForUserAgent(navigator.userAgent))), []);
  return (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={persistOptions}
      onSuccess={onCacheRestored}
    >
      <RouterProvider router={router} />
    </PersistQueryClientProvider>
  );
}
