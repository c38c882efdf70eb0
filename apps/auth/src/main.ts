import { createDistributedRuntime, runMain } from '@tollgate/runtime';
import { startAuth } from './start-auth';

void runMain(
  'auth',
  startAuth,
  () => createDistributedRuntime(process.env, 'auth', { bus: true, kv: true }),
  process.env,
);
