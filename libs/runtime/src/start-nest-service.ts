import type { DynamicModule } from '@nestjs/common';
import {
  createLogger,
  createServiceApp,
  type BaseServiceConfig,
  type ErrorRendererRoute,
  type Logger,
} from '@tollgate/platform';
import type { RunningService } from './service-runtime';

export interface NestServiceSpec<C extends BaseServiceConfig> {
  name: string;
  config: C;
  module: DynamicModule;
  /** Defaults to a logger named after the service at the configured level. */
  logger?: Logger;
  errorRenderers?: readonly ErrorRendererRoute[];
  bodyLimit?: number;
  /** Runs on the Fastify instance before the app listens (raw routes, plugins). */
  beforeListen?: (app: Awaited<ReturnType<typeof createServiceApp>>['app']) => Promise<void>;
}

/** Creates the service's Nest app with the platform wired in, listens, and returns its handle. */
export async function startNestService<C extends BaseServiceConfig>(
  spec: NestServiceSpec<C>,
): Promise<RunningService> {
  const logger = spec.logger ?? createLogger({ service: spec.name, level: spec.config.LOG_LEVEL });
  const service = await createServiceApp(spec.module, {
    service: spec.name,
    config: spec.config,
    logger,
    ...(spec.errorRenderers ? { errorRenderers: spec.errorRenderers } : {}),
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
  });
  if (spec.beforeListen) await spec.beforeListen(service.app);
  const port = await service.listen();
  const host = spec.config.HOST === '0.0.0.0' ? '127.0.0.1' : spec.config.HOST;
  return { name: spec.name, port, url: `http://${host}:${port}`, close: () => service.close() };
}
