import { createDistributedRuntime, runMain } from '@tollgate/runtime';
import { startBilling } from './start-billing';

void runMain(
  'billing',
  startBilling,
  () => createDistributedRuntime(process.env, 'billing', { bus: true, kv: true }),
  process.env,
);
