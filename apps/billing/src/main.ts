import { distributedRuntime, runMain } from '@tollgate/runtime/main';

// The service's code and its Kafka and Redis clients load lazily: a clustered primary
// (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'billing',
  () => import('./start-billing').then((m) => m.startBilling),
  distributedRuntime(process.env, 'billing', { bus: true, kv: true }),
  process.env,
);
