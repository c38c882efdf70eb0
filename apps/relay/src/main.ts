import { createDistributedRuntime, runMain } from '@tollgate/runtime';
import { startRelay } from './start-relay';

void runMain(
  'relay',
  startRelay,
  () => createDistributedRuntime(process.env, 'relay', { bus: true, kv: true }),
  process.env,
);
