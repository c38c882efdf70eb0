import { distributedRuntime, runMain } from '@tollgate/runtime/main';

// The service's code and its Kafka and Redis clients load lazily: a clustered primary
// (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'admin',
  () => import('./start-admin').then((m) => m.startAdmin),
  distributedRuntime(process.env, 'admin', { bus: true, kv: false }),
  process.env,
);
