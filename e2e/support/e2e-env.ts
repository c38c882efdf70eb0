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
