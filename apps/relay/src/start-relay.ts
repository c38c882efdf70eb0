import { createLogger, loadConfig, MODEL_API_ERROR_RENDERERS } from '@tollgate/platform';
import { startNestService, type Env, type RunningService, type ServiceRuntime } from '@tollgate/runtime';
import { relayConfigSchema } from './config';
import { registerV1Routes } from './http/v1-routes';
import { RelayModule } from './relay.module';
import { RelayRuntime } from './relay-runtime';

export async function startRelay(env: Env, runtime: ServiceRuntime): Promise<RunningService> {
  const config = loadConfig(relayConfigSchema, env);
  const logger = createLogger({ service: 'relay', level: config.LOG_LEVEL });
  return startNestService({
    name: 'relay',
    config,
    logger,
    module: RelayModule.register(runtime),
    errorRenderers: MODEL_API_ERROR_RENDERERS,
    bodyLimit: config.RELAY_BODY_LIMIT_BYTES,
    // The call's ids travel in its CallContext to the log lines and the usage event that need them:
    // no AsyncLocalStorage is ever entered, so Node 20 runs no hook per promise (bench/ANALYSIS.md, H30).
    asyncRequestContext: false,
    beforeListen: async (app) => {
      const relay = app.get(RelayRuntime);
      registerV1Routes(app.getHttpAdapter().getInstance(), {
        hotPath: () => relay.current(),
        logger,
        refused: (protocol, outcome) => relay.refused(protocol, outcome),
        internalTokenSecret: config.TOLLGATE_INTERNAL_TOKEN_SECRET,
      });
    },
  });
}
