import { createDistributedRuntime, runMain } from '@tollgate/runtime';
import { startAdmin } from './start-admin';

void runMain(
  'admin',
  startAdmin,
  () => createDistributedRuntime(process.env, 'admin', { bus: true, kv: false }),
  process.env,
);
