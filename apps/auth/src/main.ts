import { createDistributedRuntime, runMain } from '@tollgate/runtime';
import { startAuth } from './start-auth';

void runMain(
  startAuth,
  () => createDistributedRuntime(process.env, 'auth', { bus: true, kv: true }),
  process.env,
);
