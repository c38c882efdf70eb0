#!/usr/bin/env node
// The distributed gateway→relay hop over TCP loopback against a Unix socket, on real gateway and relay
// processes (issue 17, H57). One relay (distributed mode, one worker, listening on its port and on
// LISTEN_PATH) and two gateways in front of it, identical but for RELAY_URL: `tcp` (http://127.0.0.1:<port>)
// and `unix` (unix:<LISTEN_PATH>). Each round runs both at every level, in an order that alternates
// (tcp unix, unix tcp, …), so a pair's two windows are seconds apart on the same relay process: what a
// shared machine moves between runs moves both alike. Per window: CPU ms per call of the gateway that
// carried the calls and of relay (utime + stime from /proc; the idle gateway costs ~nothing), req/s.
// As bench/hot-path-cpu.mjs: fake upstream answering at once, customer seeded onto the compacted topics,
// no billing; give the run a Redis and Kafka of its own.
//
//   export TOLLGATE_INFRA_DIR=/tmp/h57-infra; bash scripts/infra.sh up redis kafka && eval "$(bash scripts/infra.sh env redis kafka)"
//   node bench/micro/unix-hop.mjs [--root DIR] [--levels 1:3000,16:8000,64:8000] [--rounds 4] [--warmup 3000] [--out FILE.json]
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sendChatCalls, waitForFirstCall } from '../lib/chat-calls.mjs';
import { infrastructureFromEnv } from '../lib/infra.mjs';
import { freePort } from '../lib/net.mjs';
import { cpuTicks, nodeProcesses, waitFor } from '../lib/processes.mjs';
import { seedRelayCustomer } from '../lib/relay-customer.mjs';
import { commonServiceEnv, gatewayEnv, relayEnv, serviceSecrets } from '../lib/standalone-services.mjs';
import { namedLog } from '../lib/log.mjs';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '..', '..') },
    levels: { type: 'string', default: '1:3000,16:8000,64:8000' },
    rounds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '3000' },
    out: { type: 'string' },
  },
});

const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const CLK_TCK = 100;
infrastructureFromEnv(['REDIS_URL', 'KAFKA_BROKERS']);

const runId = `u${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
// Short: socket paths hold at most 107 bytes.
const workDir = join(tmpdir(), `uhop-${runId}`);
mkdirSync(workDir, { recursive: true });
const socketPath = join(workDir, 'relay.sock');
const log = namedLog('unix-hop');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const { start: startProcess, stopAll } = nodeProcesses({ logDir: workDir, cwd: ROOT });

const runCalls = (url, customer, calls, concurrency) =>
  sendChatCalls({ Pool: requireFromRoot('undici').Pool, url, customer, calls, concurrency });

async function main() {
  const { KafkaEventBus } = requireFromRoot('@tollgate/events');
  const { serviceNodeFlags = () => [] } = requireFromRoot('@tollgate/launcher');
  const secrets = serviceSecrets();
  const common = commonServiceEnv(secrets);
  const upstream = await startProcess(
    'fake-upstream',
    join(ROOT, 'scripts', 'fake-upstream.mjs'),
    ['--port', '0', '--latency-ms', '0'],
    {},
    /fake-upstream listening on (http:\/\/\S+)/,
  );
  const relayPort = await freePort();
  const relay = startProcess('relay', join(ROOT, 'apps/relay/dist/main.js'), [], {
    ...common,
    nodeArgs: serviceNodeFlags('relay'),
    ...relayEnv({ port: relayPort, spoolDir: join(workDir, 'spool') }),
    LISTEN_PATH: socketPath,
  });
  const gateways = {};
  for (const [kind, relayUrl] of [
    ['tcp', `http://127.0.0.1:${relayPort}`],
    ['unix', `unix:${socketPath}`],
  ]) {
    const port = await freePort();
    const child = startProcess(`gateway-${kind}`, join(ROOT, 'apps/gateway/dist/main.js'), [], {
      ...common,
      nodeArgs: serviceNodeFlags('gateway'),
      ...gatewayEnv({ port, relayUrl }),
    });
    gateways[kind] = { url: `http://127.0.0.1:${port}`, child };
  }
  const bus = new KafkaEventBus({ brokers: process.env.KAFKA_BROKERS.split(','), clientId: `uhop-${runId}` });
  try {
    const customer = await seedRelayCustomer({
      requireFromRoot,
      bus,
      encryptionKey: secrets.encryptionKey,
      upstreamUrl: upstream.match[1],
      runId,
      prefix: 'uhop',
      label: 'Unix hop',
    });
    for (const [kind, { url }] of Object.entries(gateways)) {
      await waitFor(`gateway-${kind}`, async () => (await fetch(`${url}/health/ready`)).ok || 'not ready');
      await waitForFirstCall({ url, customer, what: `a call through gateway-${kind}` });
      log(`warm-up through gateway-${kind}: ${args.warmup} calls at c=16`);
      await runCalls(url, customer, Number(args.warmup), 16);
    }
    const levels = args.levels.split(',').map((level) => {
      const [concurrency, calls] = level.split(':').map(Number);
      return { concurrency, calls };
    });
    const windows = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      const order = round % 2 === 0 ? ['tcp', 'unix'] : ['unix', 'tcp'];
      for (const { concurrency, calls } of levels) {
        for (const kind of order) {
          const gateway = gateways[kind];
          const pids = { gateway: gateway.child.child.pid, relay: relay.child.pid };
          const before = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuTicks(pid)]));
          const load = await runCalls(gateway.url, customer, calls, concurrency);
          const ms = Object.fromEntries(
            Object.entries(pids).map(([n, pid]) => [
              n,
              ((cpuTicks(pid) - before[n]) * (1000 / CLK_TCK)) / calls,
            ]),
          );
          const window = {
            round: round + 1,
            kind,
            concurrency,
            calls,
            failed: load.failed,
            rps: calls / load.seconds,
            ms,
          };
          windows.push(window);
          log(
            `round ${round + 1} c=${concurrency} ${kind.padEnd(4)}: ${window.rps.toFixed(0)} req/s, ${load.failed} failed${load.firstFailure ? ` (${load.firstFailure})` : ''}; ` +
              `CPU ms/call gateway ${ms.gateway.toFixed(3)} relay ${ms.relay.toFixed(3)} both ${(ms.gateway + ms.relay).toFixed(3)}`,
          );
        }
      }
    }
    console.log('\npairs (tcp → unix, both processes, CPU ms per call), and medians:');
    for (const { concurrency } of levels) {
      const of = (kind) => windows.filter((w) => w.concurrency === concurrency && w.kind === kind);
      const [tcp, unix] = [of('tcp'), of('unix')];
      const both = (w) => w.ms.gateway + w.ms.relay;
      const pairs = tcp.map((t, i) => `${both(t).toFixed(3)}→${both(unix[i]).toFixed(3)}`);
      const lower = tcp.filter((t, i) => both(unix[i]) < both(t)).length;
      const med = (ws, f) => median(ws.map(f));
      console.log(
        `  c=${concurrency}: ${pairs.join(', ')} (unix lower in ${lower} of ${tcp.length}); medians ` +
          `gateway ${med(tcp, (w) => w.ms.gateway).toFixed(3)}→${med(unix, (w) => w.ms.gateway).toFixed(3)}, ` +
          `relay ${med(tcp, (w) => w.ms.relay).toFixed(3)}→${med(unix, (w) => w.ms.relay).toFixed(3)}, ` +
          `req/s ${med(tcp, (w) => w.rps).toFixed(0)}→${med(unix, (w) => w.rps).toFixed(0)}`,
      );
    }
    if (args.out) writeFileSync(args.out, JSON.stringify({ root: ROOT, runId, windows }, null, 2));
    if (windows.some((w) => w.failed > 0)) {
      process.exitCode = 1;
      log('some calls failed: these numbers do not measure served calls');
    }
  } finally {
    await bus.close().catch(() => undefined);
    await stopAll();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
