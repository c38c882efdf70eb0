import { createDistributedRuntime, runMain } from '@tollgate/runtime';

// The service's code loads lazily: a clustered primary (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'relay',
  () => import('./start-relay').then((m) => m.startRelay),
  () => createDistributedRuntime(process.env, 'relay', { bus: true, kv: true }),
  process.env,
);
