import type { BackendService } from '@tollgate/contracts';
import { createLogger, loadConfig, MetricsService, MODEL_API_ERROR_RENDERERS } from '@tollgate/platform';
import { startNestService, type Env, type RunningService } from '@tollgate/runtime';
import type { FastifyInstance } from 'fastify';
import { composeGateway } from './composition';
import { gatewayConfigSchema } from './config';
import { GatewayModule } from './gateway.module';
import { registerGatewayRoutes } from './gateway.routes';
import type { InProcessConnect, InProcessHandler } from './proxy/backend-pools';

export interface GatewayStartOptions {
  /**
   * Backends in this process (embedded mode: relay's RunningService.connect), reached over in-memory
   * connections instead of TCP loopback; the others, and every backend in distributed mode, over TCP.
   */
  inProcessBackends?: Partial<Record<BackendService, InProcessConnect>>;
  /**
   * Relay's server in this process (embedded mode: relay's RunningService.handle). The gateway hands it
   * each /v1 and /v1beta call, after its own checks, instead of forwarding it: relay reads the client's
   * request and answers the client itself. A chunked body, which the gateway must count to hold it to
   * its limit, is still forwarded.
   */
  relayHandler?: InProcessHandler;
}

/** The edge. It needs no bus and no store of its own: the services behind it own all state. */
export async function startGateway(env: Env, options: GatewayStartOptions = {}): Promise<RunningService> {
  const config = loadConfig(gatewayConfigSchema, env);
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const gateway = composeGateway(config, logger, {
    ...(options.inProcessBackends ? { connect: options.inProcessBackends } : {}),
    ...(options.relayHandler ? { relayHandler: options.relayHandler } : {}),
  });

  const running = await startNestService({
    name: 'gateway',
    config,
    logger,
    module: { module: GatewayModule },
    // Its hot path forwards from the route's onRequest hook and names the request in its own logs:
    // no async-local request context (a hook on every promise of the process) and no Nest middleware.
    asyncRequestContext: false,
    nestMiddleware: false,
    // What its router refuses before any route (a /v1 path that does not decode) in the caller's protocol.
    errorRenderers: MODEL_API_ERROR_RENDERERS,
    beforeListen: async (app) => {
      const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
      await registerGatewayRoutes(fastify, gateway.routeDeps(app.get(MetricsService)));
    },
  });
  return {
    ...running,
    close: async () => {
      await running.close();
      await gateway.pools.close();
    },
  };
}
