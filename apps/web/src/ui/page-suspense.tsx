import { Suspense, type ReactNode } from 'react';
import { Loading } from './query-state';

/**
 * Where a lazily loaded page waits for its chunk: inside its layout, so the header, sidebar or
 * bottom bar stay painted. Navigations run as transitions, so a page already shown stays until
 * the next one is ready; the fallback appears only on a first load.
 */
export function PageSuspense({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}
