import { createDistributedRuntime, runMain } from '@tollgate/runtime';

// The service's code loads lazily: a clustered primary (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'auth',
  () => import('./start-auth').then((m) => m.startAuth),
  () => createDistributedRuntime(process.env, 'auth', { bus: true, kv: true }),
  process.env,
);
