import { compileRouteTable, SESSION_LOOKUP, type BackendService } from '@tollgate/contracts';
import { createLogger, loadConfig, MetricsService, ServiceTokenSigner } from '@tollgate/platform';
import { startNestService, type Env, type RunningService } from '@tollgate/runtime';
import type { FastifyInstance } from 'fastify';
import { ClientAddressResolver } from './client/client-address';
import { gatewayConfigSchema, type GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';
import { registerGatewayRoutes } from './gateway.routes';
import { ClientRateLimiter } from './limits/client-rate-limiter';
import { CorsPolicy } from './limits/cors-policy';
import { BackendPools } from './proxy/backend-pools';
import { authSessionLookup } from './session/auth-session-lookup';
import { SessionResolver } from './session/session-resolver';
import { SessionStep } from './session/session-step';
import { WebStatic } from './static/web-static';

function backendUrls(config: GatewayConfig): Record<BackendService, string> {
  return {
    auth: config.AUTH_URL,
    billing: config.BILLING_URL,
    relay: config.RELAY_URL,
    chat: config.CHAT_URL,
    admin: config.ADMIN_URL,
  };
}

function backendHeadersTimeouts(config: GatewayConfig): Record<BackendService, number> {
  const model = config.GATEWAY_MODEL_HEADERS_TIMEOUT_MS;
  const backend = config.GATEWAY_BACKEND_HEADERS_TIMEOUT_MS;
  return { auth: backend, billing: backend, admin: backend, relay: model, chat: model };
}

/** The edge. It needs no bus and no store of its own: the services behind it own all state. */
export async function startGateway(env: Env): Promise<RunningService> {
  const config = loadConfig(gatewayConfigSchema, env);
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const pools = new BackendPools({
    urls: backendUrls(config),
    connectionsPerBackend: config.GATEWAY_BACKEND_CONNECTIONS,
    headersTimeoutMs: backendHeadersTimeouts(config),
  });

  const running = await startNestService({
    name: 'gateway',
    config,
    logger,
    module: { module: GatewayModule },
    beforeListen: async (app) => {
      const overhead = app.get(MetricsService).histogram('gatewayOverhead');
      await registerGatewayRoutes(app.getHttpAdapter().getInstance() as unknown as FastifyInstance, {
        routes: compileRouteTable(),
        pools,
        ...(config.WEB_DIST_DIR ? { web: new WebStatic(config.WEB_DIST_DIR) } : {}),
        clientAddress: new ClientAddressResolver(config.GATEWAY_TRUSTED_PROXIES),
        limiter: new ClientRateLimiter(config.GATEWAY_RATE_LIMIT_PER_MINUTE),
        cors: new CorsPolicy(config.CORS_ORIGINS),
        session: new SessionStep(
          new SessionResolver(
            authSessionLookup(
              pools.get('auth'),
              new ServiceTokenSigner(config.TOLLGATE_INTERNAL_TOKEN_SECRET, SESSION_LOOKUP.audience),
            ),
            config.GATEWAY_SESSION_CACHE_MS,
          ),
          config.TOLLGATE_INTERNAL_TOKEN_SECRET,
        ),
        bodyLimitBytes: config.GATEWAY_BODY_LIMIT_BYTES,
        apiBodyLimitBytes: config.GATEWAY_API_BODY_LIMIT_BYTES,
        uploadBodyLimitBytes: config.GATEWAY_UPLOAD_BODY_LIMIT_BYTES,
        observe: (o) => overhead.observe({ route: o.service }, o.overheadMs / 1000),
        onBackendError: (service, error) =>
          logger.warn({ service, err: error.message }, 'backend call failed'),
      });
    },
  });
  return {
    ...running,
    close: async () => {
      await running.close();
      await pools.close();
    },
  };
}
