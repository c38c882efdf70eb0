// Tollgate in embedded mode (every service in one process, PGlite databases, the in-process bus) as a
// bench target: its own process (lib/embedded-platform.mjs) on a data directory of its own, seeded as
// an operator would through the platform's HTTP API, since its bus cannot be published onto from here.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './child.mjs';
import { log } from './log.mjs';
import { freePort } from './net.mjs';
import { seedCustomerThroughApi, waitUntilServable } from './seed.mjs';
import { REPO_ROOT } from './workspace.mjs';

/** What the distributed platform is given too (lib/platform.mjs): no per-IP limit, a connection per stream. */
const HOP_CONNECTIONS = 12_000;

/** Starts the embedded platform on a fresh data directory, seeds the customer, waits until it serves. */
export async function startEmbeddedTollgate({ upstreamUrl, logDir, runId }) {
  const dataDir = mkdtempSync(join(tmpdir(), `tollgate-bench-embedded-${runId}-`));
  const port = await freePort();
  const root = {
    username: `broot_${randomBytes(4).toString('hex')}`,
    password: randomBytes(8).toString('hex'),
  };
  log('starting Tollgate (embedded: one process, startEmbedded of tools/launcher)');
  let started;
  try {
    started = await startChild({
      name: 'embedded Tollgate',
      command: process.execPath,
      args: [join(REPO_ROOT, 'bench', 'lib', 'embedded-platform.mjs')],
      cwd: REPO_ROOT,
      // Not the harness's environment: DATABASE_URL, REDIS_URL or KAFKA_BROKERS must not reach it.
      inheritEnv: false,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        SERVER_ADDRESS: `http://127.0.0.1:${port}`,
        TOLLGATE_DATA_DIR: dataDir,
        TOLLGATE_ROOT_USERNAME: root.username,
        TOLLGATE_ROOT_PASSWORD: root.password,
        // The fake upstream is on loopback, which channels may not name by default.
        CHANNEL_BASE_URL_ALLOWED_RANGES: 'loopback',
        // No exchange-rate fetch from the internet during a run.
        CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
        LOG_LEVEL: 'warn',
        GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
        GATEWAY_BACKEND_CONNECTIONS: String(HOP_CONNECTIONS),
        RELAY_UPSTREAM_CONNECTIONS: String(HOP_CONNECTIONS),
      },
      ready: /embedded platform listening on (http:\/\/\S+)/,
      logFile: join(logDir, 'tollgate-embedded.log'),
      timeoutMs: 240_000,
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const url = started.match[1];
  const stop = async () => {
    await started.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const customer = await seedCustomerThroughApi({ url, root, upstreamUrl, runId });
    await waitUntilServable(url, customer);
    log(`embedded Tollgate serves the bench key at ${url}`);
    return { url, pid: started.child.pid, customer, dataDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
