import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventBus, type EventBus } from '@tollgate/events';
import { requireEnv } from '@tollgate/testing';

export const REPO_ROOT = join(__dirname, '..', '..');

/** The real infrastructure the e2e tier runs on (`eval "$(bash scripts/infra.sh env)"`). */
export function infrastructureEnv(): { postgresAdminUrl: string; redisUrl: string; kafkaBrokers: string } {
  const env = requireEnv(
    ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS'],
    'e2e tests need them: run `eval "$(bash scripts/infra.sh env)"` first (npm test does)',
  );
  return { postgresAdminUrl: env.DATABASE_URL, redisUrl: env.REDIS_URL, kafkaBrokers: env.KAFKA_BROKERS };
}

/**
 * A usage spool directory of the run's own for a distributed relay (RELAY_USAGE_SPOOL_DIR). Relay's
 * default is relative to its working directory, the repository, where a later run's relay would
 * adopt what this one left; in the system's temp directory because relay caps the path at 80 bytes.
 */
export function relaySpoolDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'relay-spool-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A distributed run's own corner of the shared broker (its services' KAFKA_TOPIC_PREFIX). The tier's
 * files run side by side: on the same topics and consumer groups, one platform's billing would charge
 * the other's usage and one's relay would hold the other's users under the same ids.
 */
export function runTopicPrefix(runId: string): string {
  return `e2e.${runId}.`;
}

/** The test's own Kafka client in the run's corner: it sees the topic names the services see. */
export function runEventBus(runId: string, clientId: string): EventBus {
  return createEventBus({
    kind: 'kafka',
    brokers: infrastructureEnv().kafkaBrokers.split(','),
    clientId,
    topicPrefix: runTopicPrefix(runId),
  });
}
