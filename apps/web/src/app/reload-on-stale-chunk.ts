const LAST_RELOAD_KEY = 'tollgate.stale_chunk_reload_at';
const MIN_RELOAD_INTERVAL_MS = 10_000;

/**
 * After a deploy the previous build's page chunks are gone, so a tab opened before it fails to
 * load the next page. Vite reports that as `vite:preloadError`; the tab then loads the new build.
 * At most one reload per 10 s, so a chunk missing from the new build too cannot loop.
 */
export function reloadOnStaleChunk(target: Window = window, storage: Storage = sessionStorage): void {
  target.addEventListener('vite:preloadError', (event) => {
    const last = Number(storage.getItem(LAST_RELOAD_KEY) ?? 0);
    if (Date.now() - last < MIN_RELOAD_INTERVAL_MS) return;
    storage.setItem(LAST_RELOAD_KEY, String(Date.now()));
    event.preventDefault();
    target.location.reload();
  });
}
