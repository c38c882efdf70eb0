import { createEventBus } from '@tollgate/events';
import { createKvStore, MemoryKvStore } from '@tollgate/kv';
import { ConfigError, loadConfig } from '@tollgate/platform';
import { z } from 'zod';
import { busLoggerFor } from './bus-logger';
import type { Env, ServiceRuntime } from './service-runtime';

const infraSchema = z.object({
  SERVICE_NAME: z.string().min(1),
  KAFKA_BROKERS: z.string().optional(),
  /**
   * How long the broker keeps a consumer that stopped heart-beating (a killed process) before giving
   * its partitions to the others; kafkajs's 30 s when unset.
   */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6_000).max(300_000).optional(),
  /**
   * Put before every topic and consumer group this platform uses on the broker, so that platforms
   * sharing one Kafka cluster never read each other's events. Kafka's topic characters only; every
   * service of a platform must have the same one.
   */
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "letters, digits, '.', '_' and '-' only, at most 64")
    .optional(),
  REDIS_URL: z.string().url().optional(),
  LOG_LEVEL: z.string().optional(),
});

export interface DistributedRuntimeNeeds {
  /** The service publishes or consumes events (every service but the gateway). */
  bus: boolean;
  /** The service keeps shared state in Redis; without it a process-local store is used. */
  kv: boolean;
}

/** Kafka and Redis clients for a service running as its own process. */
export function createDistributedRuntime(
  env: Env,
  serviceName: string,
  needs: DistributedRuntimeNeeds,
): ServiceRuntime {
  const config = loadConfig(infraSchema, { ...env, SERVICE_NAME: env.SERVICE_NAME ?? serviceName });
  const missing = [];
  if (needs.bus && !config.KAFKA_BROKERS) missing.push({ variable: 'KAFKA_BROKERS', reason: 'is missing' });
  if (needs.kv && !config.REDIS_URL) missing.push({ variable: 'REDIS_URL', reason: 'is missing' });
  if (missing.length) throw new ConfigError(missing);

  const brokers = (config.KAFKA_BROKERS ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  const logger = busLoggerFor(config.SERVICE_NAME, config.LOG_LEVEL);
  return {
    bus: needs.bus
      ? createEventBus({
          kind: 'kafka',
          brokers,
          clientId: config.SERVICE_NAME,
          logger,
          ...(config.KAFKA_TOPIC_PREFIX ? { topicPrefix: config.KAFKA_TOPIC_PREFIX } : {}),
          ...(config.KAFKA_SESSION_TIMEOUT_MS
            ? { consumer: { sessionTimeout: config.KAFKA_SESSION_TIMEOUT_MS } }
            : {}),
        })
      : createEventBus({ kind: 'memory', logger }),
    kv: config.REDIS_URL
      ? createKvStore({
          kind: 'redis',
          url: config.REDIS_URL,
          onConnectionError: (error) =>
            logger.warn('Redis connection lost; commands wait while it reconnects', { error: error.message }),
        })
      : new MemoryKvStore(),
    embedded: false,
  };
}
