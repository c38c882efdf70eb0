import { z } from 'zod';
import { baseServiceConfig, baseServiceConfigSchema } from './base-service-config';
import { envBoolean, envInt } from './env-fields';
import { ConfigError, loadConfig } from './load-config';
import { redactConfig } from './redact-config';
import { secret } from './secret';

const SECRET_VALUE = 'a-very-secret-value-that-must-never-be-printed';
const valid = { SERVICE_NAME: 'auth', PORT: '3001', TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET_VALUE };

const problemsOf = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('applies defaults and converts types', () => {
    const config = loadConfig(baseServiceConfigSchema, valid);
    expect(config).toEqual({
      SERVICE_NAME: 'auth',
      HOST: '127.0.0.1',
      PORT: 3001,
      LOG_LEVEL: 'info',
      TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET_VALUE,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad or missing variable in one error', () => {
    const error = problemsOf(() =>
      loadConfig(baseServiceConfigSchema, {
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'nope',
      }),
    );
    expect(error.problems).toEqual(
      expect.arrayContaining([
        { variable: 'SERVICE_NAME', reason: 'is missing' },
        { variable: 'PORT', reason: 'must be a port number (0-65535)' },
        { variable: 'LOG_LEVEL', reason: expect.stringContaining("Expected 'fatal'") },
        { variable: 'OTEL_EXPORTER_OTLP_ENDPOINT', reason: 'must be a URL like http://collector:4318' },
        { variable: 'TOLLGATE_INTERNAL_TOKEN_SECRET', reason: 'is missing' },
      ]),
    );
    expect(error.problems).toHaveLength(5);
    for (const name of [
      'SERVICE_NAME',
      'PORT',
      'LOG_LEVEL',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'TOLLGATE_INTERNAL_TOKEN_SECRET',
    ]) {
      expect(error.message).toContain(name);
    }
  });

  it('treats an empty value as missing', () => {
    const error = problemsOf(() => loadConfig(baseServiceConfigSchema, { ...valid, PORT: '' }));
    expect(error.problems).toEqual([{ variable: 'PORT', reason: 'is missing' }]);
  });

  it('rejects a port out of range', () => {
    const error = problemsOf(() => loadConfig(baseServiceConfigSchema, { ...valid, PORT: '70000' }));
    expect(error.problems).toEqual([{ variable: 'PORT', reason: 'must be a port number (0-65535)' }]);
  });

  it('never prints a secret value, even where zod would repeat it', () => {
    const schema = z.object({
      TOLLGATE_INTERNAL_TOKEN_SECRET: baseServiceConfig.TOLLGATE_INTERNAL_TOKEN_SECRET,
      PAYMENT_MODE: secret(z.enum(['live', 'test'])),
    });
    const error = problemsOf(() =>
      loadConfig(schema, {
        TOLLGATE_INTERNAL_TOKEN_SECRET: 'short-secret-xyz',
        PAYMENT_MODE: 'hunter2-mode',
      }),
    );
    expect(error.problems).toEqual([
      { variable: 'TOLLGATE_INTERNAL_TOKEN_SECRET', reason: 'must be at least 32 characters long' },
      { variable: 'PAYMENT_MODE', reason: 'has an invalid value (not shown: secret)' },
    ]);
    expect(error.message).not.toContain('short-secret-xyz');
    expect(error.message).not.toContain('hunter2-mode');
  });

  it('reads integers and booleans with readable reasons', () => {
    const schema = z.object({ WORKERS: envInt(), VERBOSE: envBoolean() });
    expect(loadConfig(schema, { WORKERS: '4', VERBOSE: 'yes' })).toEqual({ WORKERS: 4, VERBOSE: true });
    const error = problemsOf(() => loadConfig(schema, { WORKERS: '4.5', VERBOSE: 'maybe' }));
    expect(error.problems).toEqual([
      { variable: 'WORKERS', reason: 'must be an integer' },
      { variable: 'VERBOSE', reason: 'must be one of true, false, 1, 0, yes, no' },
    ]);
  });
});

describe('redactConfig', () => {
  it('censors fields marked secret, including wrapped ones, and keeps the rest', () => {
    const schema = z.object({
      ...baseServiceConfig,
      DATABASE_URL: secret(z.string().url()).optional(),
      WEBHOOK_KEY: secret(z.string()).default('dev-default'),
    });
    const config = loadConfig(schema, { ...valid, DATABASE_URL: 'postgres://u:p@db/x' });
    expect(redactConfig(config)).toEqual({
      SERVICE_NAME: 'auth',
      HOST: '127.0.0.1',
      PORT: 3001,
      LOG_LEVEL: 'info',
      TOLLGATE_INTERNAL_TOKEN_SECRET: '[REDACTED]',
      DATABASE_URL: '[REDACTED]',
      WEBHOOK_KEY: '[REDACTED]',
    });
  });

  it('masks passwords in URLs and secret-looking names that were not marked', () => {
    const config = {
      REDIS_URL: 'redis://:s3cret@cache:6379/0',
      SMTP_PASSWORD: 'mail-pass',
      KAFKA_BROKERS: 'k1:9092',
    };
    expect(redactConfig(config)).toEqual({
      REDIS_URL: 'redis://:[REDACTED]@cache:6379/0',
      SMTP_PASSWORD: '[REDACTED]',
      KAFKA_BROKERS: 'k1:9092',
    });
  });
});
