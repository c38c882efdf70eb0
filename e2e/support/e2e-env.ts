import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
