// Environments of a relay and a gateway that a stand-alone bench (bench/hot-path-cpu.mjs, bench/micro/*)
// starts on its own: distributed mode, one worker each, on the Redis and Kafka of REDIS_URL and
// KAFKA_BROKERS, no telemetry, warnings only. The other services' URLs point where nothing listens:
// the happy path of a /v1 call never calls billing, admin, auth or chat.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { waitForFirstCall } from './chat-calls.mjs';
import { freePort } from './net.mjs';
import { waitFor } from './processes.mjs';
import { seedRelayCustomer } from './relay-customer.mjs';

const NOWHERE = 'http://127.0.0.1:9';

/** A fresh internal-token secret and encryption key, shared by the services of one run. */
export function serviceSecrets() {
  return {
    internalSecret: randomBytes(32).toString('hex'),
    encryptionKey: randomBytes(32).toString('base64'),
  };
}

/** What every service of the run gets. */
export function commonServiceEnv({ internalSecret, encryptionKey }) {
  return {
    TOLLGATE_INTERNAL_TOKEN_SECRET: internalSecret,
    TOLLGATE_ENCRYPTION_KEY: encryptionKey,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    TOLLGATE_WORKERS: '1',
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
  };
}

/** Relay on `port`, its usage spool in `spoolDir`. */
export function relayEnv({ port, spoolDir }) {
  return {
    SERVICE_NAME: 'relay',
    PORT: String(port),
    REDIS_URL: process.env.REDIS_URL,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    RELAY_USAGE_SPOOL_DIR: spoolDir,
    BILLING_URL: NOWHERE,
    ADMIN_URL: NOWHERE,
  };
}

/** The gateway on `port` in front of the relay at `relayUrl`, without its per-IP rate limit. */
export function gatewayEnv({ port, relayUrl }) {
  return {
    SERVICE_NAME: 'gateway',
    PORT: String(port),
    RELAY_URL: relayUrl,
    AUTH_URL: NOWHERE,
    BILLING_URL: NOWHERE,
    CHAT_URL: NOWHERE,
    ADMIN_URL: NOWHERE,
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
  };
}

/**
 * The fake upstream (answering at once), a relay in front of it and a gateway in front of relay, each
 * its own process started with `startProcess` (bench/lib/processes.mjs); then the run's customer
 * published on `bus` (seedRelayCustomer) and a first call through the gateway served. `nodeArgsOf`
 * gives each service's Node flags; `env` is added to both services' environments.
 */
export async function startRelayBehindGateway({
  root,
  requireFromRoot,
  startProcess,
  workDir,
  secrets,
  bus,
  runId,
  prefix,
  label,
  nodeArgsOf,
  env = {},
}) {
  const upstream = await startProcess(
    'fake-upstream',
    join(root, 'scripts', 'fake-upstream.mjs'),
    ['--port', '0', '--latency-ms', '0'],
    {},
    /fake-upstream listening on (http:\/\/\S+)/,
  );
  const upstreamUrl = upstream.match[1];
  const [relayPort, gatewayPort] = [await freePort(), await freePort()];
  const relayUrl = `http://127.0.0.1:${relayPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const common = { ...commonServiceEnv(secrets), ...env };
  const relay = startProcess('relay', join(root, 'apps/relay/dist/main.js'), [], {
    ...common,
    nodeArgs: nodeArgsOf('relay'),
    ...relayEnv({ port: relayPort, spoolDir: join(workDir, 'spool') }),
  });
  const gateway = startProcess('gateway', join(root, 'apps/gateway/dist/main.js'), [], {
    ...common,
    nodeArgs: nodeArgsOf('gateway'),
    ...gatewayEnv({ port: gatewayPort, relayUrl }),
  });
  const customer = await seedRelayCustomer({
    requireFromRoot,
    bus,
    encryptionKey: secrets.encryptionKey,
    upstreamUrl,
    runId,
    prefix,
    label,
  });
  await waitFor('relay', async () => (await fetch(`${relayUrl}/health/ready`)).ok || 'not ready');
  await waitFor('gateway', async () => (await fetch(`${gatewayUrl}/health/ready`)).ok || 'not ready');
  await waitForFirstCall({ url: gatewayUrl, customer, what: 'a call through the gateway' });
  return { upstreamUrl, relayUrl, gatewayUrl, relay, gateway, customer };
}

/**
 * A relay alone in its own process (the checkout at `root`'s build, `nodeArgs` before its main, `env`
 * added, its log in `workDir`/relay.log) in front of the upstream at `upstreamUrl`; then the run's
 * customer published (seedRelayCustomer) and a first call served. A start that fails part-way leaves
 * no relay running: it is killed when this process exits.
 */
export async function startRelayAlone({
  root,
  requireFromRoot,
  workDir,
  upstreamUrl,
  runId,
  prefix,
  label,
  nodeArgs = [],
  env = {},
}) {
  const { KafkaEventBus } = requireFromRoot('@tollgate/events');
  const secrets = serviceSecrets();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = join(workDir, 'relay.log');
  const relay = spawn(process.execPath, [...nodeArgs, join(root, 'apps/relay/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      ...commonServiceEnv(secrets),
      ...relayEnv({ port, spoolDir: join(workDir, 'spool') }),
      ...env,
    },
    stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')],
  });
  const exited = new Promise((resolve) => relay.once('exit', resolve));
  process.once('exit', () => relay.kill('SIGKILL'));
  const bus = new KafkaEventBus({
    brokers: process.env.KAFKA_BROKERS.split(','),
    clientId: `${prefix}-${runId}`,
  });
  const customer = await seedRelayCustomer({
    requireFromRoot,
    bus,
    encryptionKey: secrets.encryptionKey,
    upstreamUrl,
    runId,
    prefix,
    label,
  });
  await waitFor('relay', async () => (await fetch(`${url}/health/ready`)).ok || 'not ready');
  await waitForFirstCall({ url, customer });
  return {
    url,
    customer,
    pid: relay.pid,
    stop: async () => {
      await bus.close().catch(() => undefined);
      const timer = setTimeout(() => relay.kill('SIGKILL'), 15_000);
      relay.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}
