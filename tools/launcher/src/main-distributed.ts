import { join } from 'node:path';
import { startDistributed } from './distributed';
import { embeddedSecrets } from './embedded-secrets';
import { readyTimeoutFromEnv } from './ready-timeout';

/**
 * `npm run start:distributed` (after `scripts/infra.sh up` put DATABASE_URL, REDIS_URL and
 * KAFKA_BROKERS in the environment): each service its own process, the gateway on PORT.
 */
async function main(): Promise<void> {
  const env = process.env;
  const missing = ['DATABASE_URL', 'REDIS_URL', 'KAFKA_BROKERS'].filter((v) => !env[v]);
  if (missing.length)
    throw new Error(`missing ${missing.join(', ')}: run through "npm run start:distributed"`);
  const repoRoot = join(__dirname, '..', '..', '..');
  const dataDir = env.TOLLGATE_DATA_DIR || join(repoRoot, 'data');
  const { DATABASE_URL: _admin, ...base } = env;
  const port = Number(env.PORT || 3000);
  const readyTimeoutMs = readyTimeoutFromEnv(env);
  const platform = await startDistributed({
    repoRoot,
    env: { SERVER_ADDRESS: `http://localhost:${port}`, ...base, ...embeddedSecrets(env, dataDir) },
    postgresAdminUrl: env.DATABASE_URL as string,
    redisUrl: env.REDIS_URL as string,
    kafkaBrokers: env.KAFKA_BROKERS as string,
    gatewayPort: port,
    logDir: join(dataDir, 'logs'),
    // relay.sock beside the logs when TOLLGATE_UNIX_HOP=1 puts the gateway's hop to relay on a socket.
    socketDir: dataDir,
    readyTimeoutMs,
  });
  console.log(
    `Tollgate is running on ${platform.url} (distributed mode; logs in ${join(dataDir, 'logs')}). Ctrl-C stops it.`,
  );
  const stop = () => void platform.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
