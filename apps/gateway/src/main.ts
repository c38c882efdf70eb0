import { createDistributedRuntime, runMain } from '@tollgate/runtime';

// The service's code loads lazily: a clustered primary (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'gateway',
  () => import('./start-gateway').then((m) => m.startGateway),
  () => createDistributedRuntime(process.env, 'gateway', { bus: false, kv: false }),
  process.env,
);
