import { useCallback, useSyncExternalStore } from 'react';

/** Whether `query` matches now, following changes; false where the browser cannot tell (no matchMedia, as in jsdom). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      // Older engines (and some test doubles) have no listeners on the list: read once, follow nothing.
      if (typeof list.addEventListener !== 'function') return () => {};
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const matches = () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  return useSyncExternalStore(subscribe, matches, () => false);
}
