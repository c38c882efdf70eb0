import { z } from 'zod';
import { LOG_LEVELS } from '../logging/create-logger';
import { envPort } from './env-fields';
import { secret } from './secret';

/**
 * Fields every service's schema starts from: `z.object({ ...baseServiceConfig, DATABASE_URL: secret(...) })`.
 * A service may give SERVICE_NAME a default: `SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('auth')`.
 */
export const baseServiceConfig = {
  SERVICE_NAME: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be a lower-case name like "relay"'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: envPort(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url('must be a URL like http://collector:4318').optional(),
  TOLLGATE_INTERNAL_TOKEN_SECRET: secret(z.string().min(32, 'must be at least 32 characters long')),
};

export const baseServiceConfigSchema = z.object(baseServiceConfig);
export type BaseServiceConfig = z.output<typeof baseServiceConfigSchema>;
