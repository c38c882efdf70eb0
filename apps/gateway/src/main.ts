import { createDistributedRuntime, runMain } from '@tollgate/runtime';
import { startGateway } from './start-gateway';

void runMain(
  'gateway',
  (env) => startGateway(env),
  () => createDistributedRuntime(process.env, 'gateway', { bus: false, kv: false }),
  process.env,
);
