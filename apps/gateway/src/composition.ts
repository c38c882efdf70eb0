import { compileRouteTable, SESSION_LOOKUP, type BackendService } from '@tollgate/contracts';
import { ServiceTokenSigner, type Logger, type MetricsService } from '@tollgate/platform';
import { ClientAddressResolver } from './client/client-address';
import type { GatewayConfig } from './config';
import type { GatewayRouteDeps, ProxyObservation } from './gateway.routes';
import { ClientRateLimiter } from './limits/client-rate-limiter';
import { CorsPolicy } from './limits/cors-policy';
import { BackendPools, type InProcessConnect, type InProcessHandler } from './proxy/backend-pools';
import { authSessionLookup } from './session/auth-session-lookup';
import { SessionResolver } from './session/session-resolver';
import { SessionStep } from './session/session-step';
import { WebStatic } from './static/web-static';

/** The gateway's forwarding path, as plain objects; Nest only starts the server around it. */
export interface GatewayComposition {
  pools: BackendPools;
  /** What the forwarding routes need, once Nest's metrics exist. */
  routeDeps(metrics: MetricsService): GatewayRouteDeps;
}

/** Backends in this process (embedded mode), see GatewayStartOptions. */
export interface InProcessBackends {
  connect?: Partial<Record<BackendService, InProcessConnect>>;
  relayHandler?: InProcessHandler;
}

export function composeGateway(
  config: GatewayConfig,
  logger: Logger,
  inProcess: InProcessBackends = {},
): GatewayComposition {
  const pools = new BackendPools({
    urls: backendUrls(config),
    connectionsPerBackend: config.GATEWAY_BACKEND_CONNECTIONS,
    headersTimeoutMs: backendHeadersTimeouts(config),
    inProcess: inProcess.connect ?? {},
  });
  const forwarding = {
    routes: compileRouteTable(),
    pools,
    ...(inProcess.relayHandler ? { relayInProcess: inProcess.relayHandler } : {}),
    ...(config.WEB_DIST_DIR ? { web: new WebStatic(config.WEB_DIST_DIR) } : {}),
    clientAddress: new ClientAddressResolver(config.GATEWAY_TRUSTED_PROXIES),
    limiter: new ClientRateLimiter(config.GATEWAY_RATE_LIMIT_PER_MINUTE),
    keyedModelCallLimiter: new ClientRateLimiter(config.GATEWAY_V1_RATE_LIMIT_PER_MINUTE),
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
    onBackendError: function logBackendError(service: BackendService, error: Error, requestId: string): void {
      logger.warn({ requestId, service, err: error.message }, 'backend call failed');
    },
  };
  return {
    pools,
    routeDeps(metrics) {
      const overhead = metrics.histogram('gatewayOverhead');
      return {
        ...forwarding,
        observe: function observeOverhead(o: ProxyObservation): void {
          overhead.observe({ route: o.service }, o.overheadMs / 1000);
        },
      };
    },
  };
}

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
