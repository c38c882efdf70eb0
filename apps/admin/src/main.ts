import { createDistributedRuntime, runMain } from '@tollgate/runtime';

// The service's code loads lazily: a clustered primary (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'admin',
  () => import('./start-admin').then((m) => m.startAdmin),
  () => createDistributedRuntime(process.env, 'admin', { bus: true, kv: false }),
  process.env,
);
