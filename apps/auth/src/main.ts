import { distributedRuntime, runMain } from '@tollgate/runtime/main';

// The service's code and its Kafka and Redis clients load lazily: a clustered primary
// (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'auth',
  () => import('./start-auth').then((m) => m.startAuth),
  distributedRuntime(process.env, 'auth', { bus: true, kv: true }),
  process.env,
);
