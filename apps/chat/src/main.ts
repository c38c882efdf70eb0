import { distributedRuntime, runMain } from '@tollgate/runtime/main';

// The service's code and its Kafka and Redis clients load lazily: a clustered primary
// (TOLLGATE_WORKERS > 1) only forks workers.
void runMain(
  'chat',
  () => import('./start-chat').then((m) => m.startChat),
  distributedRuntime(process.env, 'chat', { bus: true, kv: false }),
  process.env,
);
