import { useCallback, useLayoutEffect, useRef } from 'react';

/** How close to the bottom still counts as "at the bottom" (px). */
const PINNED_WITHIN = 48;

/**
 * Keeps a scrolling box at its bottom while content grows (a streaming answer), unless the user
 * scrolled up to read; scrolling back down pins it again.
 */
export function usePinnedScroll<T extends HTMLElement>(content: unknown) {
  const ref = useRef<T | null>(null);
  const pinned = useRef(true);

  const onScroll = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    pinned.current = box.scrollHeight - box.scrollTop - box.clientHeight <= PINNED_WITHIN;
  }, []);

  useLayoutEffect(() => {
    const box = ref.current;
    if (box && pinned.current) box.scrollTop = box.scrollHeight;
  }, [content]);

  return { ref, onScroll, pin: () => (pinned.current = true) };
}
