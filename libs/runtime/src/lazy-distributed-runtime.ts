import type { DistributedRuntimeNeeds } from './distributed-runtime';
import type { MakeRuntime } from './run-main';
import type { Env } from './service-runtime';

/**
 * The MakeRuntime of a service running as its own process: createDistributedRuntime, whose Kafka and
 * Redis clients are loaded only when runMain calls it, in the process that runs the service.
 */
export const distributedRuntime =
  (env: Env, serviceName: string, needs: DistributedRuntimeNeeds): MakeRuntime =>
  () =>
    import('./distributed-runtime').then((m) => m.createDistributedRuntime(env, serviceName, needs));
