import { createDistributedRuntime, runMain } from '@tollgate/runtime';

// The service's code loads lazily: a clustered primary (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'chat',
  () => import('./start-chat').then((m) => m.startChat),
  () => createDistributedRuntime(process.env, 'chat', { bus: true, kv: false }),
  process.env,
);
