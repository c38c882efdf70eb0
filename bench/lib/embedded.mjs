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
import { BENCH_BALANCE, UPSTREAM_KEY, UPSTREAM_MODEL, waitUntilServable } from './seed.mjs';
import { REPO_ROOT } from './workspace.mjs';

/** What the distributed platform is given too (lib/platform.mjs): no per-IP limit, a connection per stream. */
const HOP_CONNECTIONS = 12_000;

/** An operator's (or customer's) signed-in HTTP session on the platform. */
async function signIn(url, credentials) {
  const res = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200)
    throw new Error(`sign-in as ${credentials.username}: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { id } = (await res.json()).data;
  return async (method, path, body) => {
    const answer = await fetch(`${url}${path}`, {
      method,
      headers: { cookie, 'new-api-user': String(id), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    const json = text ? JSON.parse(text) : {};
    if (answer.status !== 200 || json.success === false)
      throw new Error(`${method} ${path}: ${answer.status} ${text.slice(0, 300)}`);
    return json.data;
  };
}

/**
 * The bench's customer on the embedded platform: root prices the model and adds an OpenAI channel on
 * the fake upstream (admin API), creates a user and sets its balance (the admin quota adjustment, a
 * ledger entry in billing); the user makes an unlimited key (/api/token/).
 */
async function seedEmbeddedCustomer({ url, root, upstreamUrl, runId }) {
  const model = `bench-gpt-${runId}`;
  const asRoot = await signIn(url, root);
  await asRoot('PUT', `/api/pricing/models/${model}`, {
    provider: 'openai',
    input_price: '0.15',
    output_price: '0.6',
    cached_input_price: '0.075',
    context_window: 128_000,
    intelligence: 3,
    speed: 4,
    sota: false,
    deprecated: false,
  });
  await asRoot('POST', '/api/channel/', {
    type: 1,
    name: 'bench fake upstream',
    key: UPSTREAM_KEY,
    base_url: upstreamUrl,
    models: model,
    model_mapping: JSON.stringify({ [model]: UPSTREAM_MODEL }),
    group: 'default',
  });
  const customer = {
    username: `bench${randomBytes(4).toString('hex')}`,
    password: randomBytes(8).toString('hex'),
  };
  const { id: userId } = await asRoot('POST', '/api/user/', customer);
  await asRoot('PUT', '/api/user/', { id: userId, quota: BENCH_BALANCE, quota_reason: 'bench' });
  const asCustomer = await signIn(url, customer);
  const { id: tokenId } = await asCustomer('POST', '/api/token/', {
    name: 'bench key',
    unlimited_quota: true,
  });
  const { key: apiKey } = await asCustomer('POST', `/api/token/${tokenId}/key`);
  return { userId, tokenId, apiKey, model, group: 'default' };
}

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
    const customer = await seedEmbeddedCustomer({ url, root, upstreamUrl, runId });
    await waitUntilServable(url, customer);
    log(`embedded Tollgate serves the bench key at ${url}`);
    return { url, pid: started.child.pid, customer, dataDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
