import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { BackendService } from '@tollgate/contracts';
import { startDistributed, type DistributedPlatform } from '@tollgate/launcher';
import { freePort, newRunId, TEST_OPERATOR_ENV } from '@tollgate/testing';
import { Browser } from './accounts-browser';
import { infrastructureEnv, relaySpoolDir, REPO_ROOT, runTopicPrefix } from './e2e-env';

export interface AccountsPlatformOptions {
  /** Names the log directory: reports/e2e-logs/accounts-<name>-<run id>. */
  name: string;
  skip: readonly BackendService[];
  /** Settings on top of the common ones (OAuth providers, limits, …). */
  env?: (gatewayUrl: string) => Record<string, string>;
}

export interface AccountsPlatform {
  readonly runId: string;
  readonly url: string;
  readonly platform: DistributedPlatform;
  readonly root: { username: string; password: string };
  /** Where auth writes its mail (.eml files): no SMTP_URL is set. */
  readonly outboxDir: string;
  /**
   * Root, signed in once for every scenario on this platform: each signing in again would spend one
   * of the few sign-ins per minute the platform allows a username (LOGIN_LIMIT_PER_USERNAME).
   */
  signedInRoot(): Promise<Browser>;
  stop(): Promise<void>;
}

/** Per-username sign-in attempts per minute: low, so the limit is reached in a few calls. */
export const LOGIN_LIMIT_PER_USERNAME = 4;

/**
 * The platform as separate processes on the shared PostgreSQL, Redis and Kafka, with auth mailing
 * to an outbox directory and the gateway believing the loopback "balancer" (the test) about client
 * addresses, so every scenario has an address of its own for the per-address limits.
 */
export async function startAccountsPlatform(options: AccountsPlatformOptions): Promise<AccountsPlatform> {
  const infra = infrastructureEnv();
  const runId = newRunId();
  const outboxDir = await mkdtemp(join(tmpdir(), 'tollgate-e2e-outbox-'));
  const spool = relaySpoolDir();
  const root = { username: `root_${runId}`, password: `root-pw-${randomBytes(6).toString('hex')}` };
  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const platform = await startDistributed({
    repoRoot: REPO_ROOT,
    env: {
      ...TEST_OPERATOR_ENV,
      TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
      TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      TOLLGATE_ROOT_USERNAME: root.username,
      TOLLGATE_ROOT_PASSWORD: root.password,
      TOLLGATE_EMAIL_VERIFICATION: 'true',
      MAIL_OUTBOX_DIR: outboxDir,
      GATEWAY_TRUSTED_PROXIES: 'loopback',
      AUTH_LOGIN_LIMIT_PER_USERNAME: String(LOGIN_LIMIT_PER_USERNAME),
      LOG_LEVEL: 'info',
      RELAY_USAGE_SPOOL_DIR: spool.dir,
      KAFKA_TOPIC_PREFIX: runTopicPrefix(runId),
      // Billing never reaches the internet in tests.
      CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
      ...options.env?.(gatewayUrl),
    },
    ...infra,
    gatewayPort,
    databasePrefix: `e2e_${runId}`,
    logDir: join(REPO_ROOT, 'reports', 'e2e-logs', `accounts-${options.name}-${runId}`),
    skip: [...options.skip],
  }).catch(async (error: unknown) => {
    await rm(outboxDir, { recursive: true, force: true });
    spool.remove();
    throw error;
  });
  try {
    await moveIdsAwayFromOtherRuns(platform, options.skip);
  } catch (error) {
    await platform.stop();
    await rm(outboxDir, { recursive: true, force: true });
    spool.remove();
    throw error;
  }
  let rootSession: Promise<Browser> | undefined;
  const signInRoot = async (): Promise<Browser> => {
    const browser = new Browser(platform.url);
    const answer = await browser.signIn(root.username, root.password);
    if (answer.status !== 200)
      throw new Error(`root could not sign in: ${answer.status} ${answer.body.message}`);
    return browser;
  };
  return {
    runId,
    url: platform.url,
    platform,
    root,
    outboxDir,
    signedInRoot: () => (rootSession ??= signInRoot()),
    async stop() {
      await platform.stop();
      await rm(outboxDir, { recursive: true, force: true });
      spool.remove();
    },
  };
}

/**
 * The broker is shared: compacted topics keyed by user, key and channel id hold other runs' entities
 * too, and read models (auth's balances, relay's keys, users and channels) keep the latest per id.
 * Starting this run's ids at a random height keeps another run's user 2 from becoming ours.
 */
async function moveIdsAwayFromOtherRuns(
  platform: DistributedPlatform,
  skipped: readonly BackendService[],
): Promise<void> {
  const tables: [keyof DistributedPlatform['databaseUrls'], string][] = [
    ['auth', 'users'],
    ['auth', 'tokens'],
  ];
  if (!skipped.includes('admin')) tables.push(['admin', 'channels']);
  for (const [service, table] of tables) {
    const client = new Client({ connectionString: platform.databaseUrls[service] });
    await client.connect();
    try {
      await client.query(`select setval(pg_get_serial_sequence($1, 'id'), $2)`, [
        table,
        randomInt(10_000_000, 90_000_000),
      ]);
    } finally {
      await client.end();
    }
  }
}
