import { createDistributedRuntime, runMain } from '@tollgate/runtime';

// The service's code loads lazily: a clustered primary (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'billing',
  () => import('./start-billing').then((m) => m.startBilling),
  () => createDistributedRuntime(process.env, 'billing', { bus: true, kv: true }),
  process.env,
);
