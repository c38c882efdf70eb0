import { distributedRuntime, runMain } from '@tollgate/runtime/main';

// The service's code and its Kafka and Redis clients load lazily: a clustered primary
// (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'relay',
  () => import('./start-relay').then((m) => m.startRelay),
  distributedRuntime(process.env, 'relay', { bus: true, kv: true }),
  process.env,
);
