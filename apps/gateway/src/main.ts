import { distributedRuntime, runMain } from '@tollgate/runtime/main';

// The service's code and its Kafka and Redis clients load lazily: a clustered primary
// (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'gateway',
  () => import('./start-gateway').then((m) => (env) => m.startGateway(env)),
  distributedRuntime(process.env, 'gateway', { bus: false, kv: false }),
  process.env,
);
