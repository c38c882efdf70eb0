// Runs in each Jest worker before its test files: this worker's own PGlite server (see global-setup.ts).
const urls = (process.env.TOLLGATE_TEST_PGLITE_URLS ?? '').split(',').filter(Boolean);
if (urls.length > 0) {
  const worker = Math.max(1, Number(process.env.JEST_WORKER_ID ?? '1'));
  process.env.TOLLGATE_TEST_PGLITE_URL = urls[(worker - 1) % urls.length];
}
