import { rm } from 'node:fs/promises';
import { PGLITE_TEST_SERVER, type PgliteTestServer } from './global-setup';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as { [PGLITE_TEST_SERVER]?: PgliteTestServer })[PGLITE_TEST_SERVER];
  if (state === undefined) return;
  delete (globalThis as { [PGLITE_TEST_SERVER]?: PgliteTestServer })[PGLITE_TEST_SERVER];
  for (const { server, db } of state.instances) {
    await server.stop();
    await db.close();
  }
  await rm(state.dataRoot, { recursive: true, force: true });
}
