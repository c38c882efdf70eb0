import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

/** The real infrastructure the e2e tier runs on (`eval "$(bash scripts/infra.sh env)"`). */
export function infrastructureEnv(): { postgresAdminUrl: string; redisUrl: string; kafkaBrokers: string } {
  const missing = ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS'].filter((name) => !process.env[name]);
  if (missing.length) {
    throw new Error(
      `e2e tests need ${missing.join(', ')}: run \`eval "$(bash scripts/infra.sh env)"\` first (npm test does)`,
    );
  }
  return {
    postgresAdminUrl: process.env.DATABASE_URL as string,
    redisUrl: process.env.REDIS_URL as string,
    kafkaBrokers: process.env.KAFKA_BROKERS as string,
  };
}

export const runId = (): string => randomBytes(4).toString('hex');

/** Polls until `probe` returns a value other than undefined, or fails with the last reason. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
