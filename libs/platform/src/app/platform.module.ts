import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { Logger } from 'pino';
import type { ErrorRendererRoute } from '../errors/error-renderer';
import { PlatformExceptionFilter } from '../errors/exception.filter';
import { HealthController } from '../health/health.controller';
import { HealthRegistry } from '../health/health.registry';
import { INTERNAL_TOKEN_SECRET, InternalIdentityGuard } from '../identity/internal-identity.guard';
import { MetricsController } from '../metrics/metrics.controller';
import { MetricsService } from '../metrics/metrics.service';
import { LOGGER, SERVICE_CONFIG } from './platform.tokens';

export interface PlatformModuleOptions {
  service: string;
  logger: Logger;
  internalTokenSecret: string;
  config?: object;
  errorRenderers?: readonly ErrorRendererRoute[];
}

/**
 * What every service shares: /health and /metrics, the error filter, the identity guard on every route,
 * and, for any module to inject, the logger (LOGGER), configuration (SERVICE_CONFIG), MetricsService and
 * HealthRegistry.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot({
    service,
    logger,
    internalTokenSecret,
    config,
    errorRenderers = [],
  }: PlatformModuleOptions): DynamicModule {
    return {
      module: PlatformModule,
      global: true,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: LOGGER, useValue: logger },
        { provide: SERVICE_CONFIG, useValue: config ?? {} },
        { provide: INTERNAL_TOKEN_SECRET, useValue: internalTokenSecret },
        { provide: MetricsService, useFactory: () => new MetricsService(service) },
        HealthRegistry,
        { provide: APP_GUARD, useClass: InternalIdentityGuard },
        { provide: APP_FILTER, useFactory: () => new PlatformExceptionFilter(logger, errorRenderers) },
      ],
      exports: [LOGGER, SERVICE_CONFIG, MetricsService, HealthRegistry],
    };
  }
}
