import { loadConfig } from '@tollgate/platform';
import { startNestService, type Env, type RunningService, type ServiceRuntime } from '@tollgate/runtime';
import { relayConfigSchema } from './config';
import { RELAY_ERROR_RENDERERS } from './errors/protocol-error-renderers';
import { RelayModule } from './relay.module';

export async function startRelay(env: Env, runtime: ServiceRuntime): Promise<RunningService> {
  const config = loadConfig(relayConfigSchema, env);
  return startNestService({
    name: 'relay',
    config,
    module: RelayModule.register(runtime),
    errorRenderers: RELAY_ERROR_RENDERERS,
  });
}
