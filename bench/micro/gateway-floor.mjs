#!/usr/bin/env node
// The distributed gateway against a pass-through floor (issue 17, h73): CPU per /v1 call of the real
// gateway (apps/gateway/dist) and of a minimal proxy written here, both in front of the SAME relay
// (which is in front of the fake upstream), measured in interleaved rounds over the same calls. The
// minimal proxy does only what a pass-through must: a node:http server takes the client's call and an
// undici Pool (keep-alive, one call per connection) dispatches it to relay with the client's headers
// (hop-by-hop ones dropped), the answer's status, headers and body streamed back. It uses the same lean
// handler API and arrived-body buffer as the gateway's stream-proxy.ts, so what separates the two is
// the gateway's own per-call work (request id, limits, CORS, routing, metrics, logging).
// Both sit in front of one relay so the calls are real (relay answers 200 with usage) and relay's CPU
// is a check that both fronts delivered the same calls.
//
//   export TOLLGATE_INFRA_DIR=/tmp/h73-infra; bash scripts/infra.sh up redis kafka
//   eval "$(bash scripts/infra.sh env redis kafka)"
//   node bench/micro/gateway-floor.mjs [--levels 1:3000,16:8000,64:8000] [--rounds 4] [--root DIR]
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sendChatCalls, waitForFirstCall } from '../lib/chat-calls.mjs';
import { infrastructureFromEnv } from '../lib/infra.mjs';
import { freePort } from '../lib/net.mjs';
import { cpuTicks, nodeProcesses } from '../lib/processes.mjs';
import { serviceSecrets, startRelayBehindGateway } from '../lib/standalone-services.mjs';

const HERE = fileURLToPath(import.meta.url);
const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(dirname(HERE), '..', '..') },
    levels: { type: 'string', default: '1:3000,16:8000,64:8000' },
    rounds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '3000' },
    serve: { type: 'string' },
    backend: { type: 'string' },
  },
});
const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const CLK_TCK = 100;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (args.serve) serveFloor(Number(args.serve), args.backend);
else await main();

// ---- the floor: a pass-through proxy and nothing else

function serveFloor(port, backend) {
  const { Pool } = requireFromRoot('undici');
  const pool = new Pool(backend, { pipelining: 1 });
  const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade']);
  const server = createServer((req, res) => {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    const declared = req.headers['content-length'];
    let body = req;
    if (declared !== undefined && req.readableLength === Number(declared)) {
      body = req.read() ?? Buffer.alloc(0);
      req.resume();
    }
    pool.dispatch(
      { path: req.url, method: req.method, headers, body },
      {
        onConnect() {},
        onHeaders(statusCode, rawHeaders) {
          if (statusCode < 200) return true;
          const out = [];
          for (let i = 0; i < rawHeaders.length; i += 2) {
            const name = rawHeaders[i].toString('latin1');
            if (HOP_BY_HOP.has(name.toLowerCase())) continue;
            out.push(name, rawHeaders[i + 1].toString('latin1'));
          }
          res.writeHead(statusCode, out);
          return true;
        },
        onData(chunk) {
          return res.write(chunk);
        },
        onComplete() {
          res.end();
        },
        onError(error) {
          if (res.headersSent) res.destroy(error);
          else res.writeHead(502).end();
        },
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, '127.0.0.1', () => console.log(`gateway-floor listening on http://127.0.0.1:${port}`));
}

// ---- the run

async function main() {
  infrastructureFromEnv(['REDIS_URL', 'KAFKA_BROKERS']);
  const { KafkaEventBus } = requireFromRoot('@tollgate/events');
  const runId = `f${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const workDir = join(tmpdir(), `gwf-${runId}`);
  mkdirSync(workDir, { recursive: true });
  const log = (line) => console.error(`[gateway-floor ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const { start: startProcess, stopAll } = nodeProcesses({ logDir: workDir, cwd: ROOT });
  const secrets = serviceSecrets();
  const { serviceNodeFlags = () => [] } = requireFromRoot('@tollgate/launcher');
  const bus = new KafkaEventBus({ brokers: process.env.KAFKA_BROKERS.split(','), clientId: `gwf-${runId}` });
  const { Pool } = requireFromRoot('undici');
  try {
    const { relayUrl, gatewayUrl, relay, gateway, customer } = await startRelayBehindGateway({
      root: ROOT,
      requireFromRoot,
      startProcess,
      workDir,
      secrets,
      bus,
      runId,
      prefix: 'gwf',
      label: 'Gateway floor',
      nodeArgsOf: serviceNodeFlags,
    });
    const floorPort = await freePort();
    const floorUrl = `http://127.0.0.1:${floorPort}`;
    const floor = startProcess(
      'floor',
      HERE,
      ['--serve', String(floorPort), '--backend', relayUrl, '--root', ROOT],
      {
        nodeArgs: serviceNodeFlags('gateway'),
      },
    );
    await waitForFirstCall({ url: floorUrl, customer, what: 'a call through the floor' });
    const fronts = {
      gateway: { url: gatewayUrl, pid: gateway.child.pid },
      floor: { url: floorUrl, pid: floor.child.pid },
    };
    for (const [name, front] of Object.entries(fronts)) {
      log(`warm-up ${name}: ${args.warmup} calls at c=16`);
      await sendChatCalls({ Pool, url: front.url, customer, calls: Number(args.warmup), concurrency: 16 });
    }
    const levels = args.levels.split(',').map((level) => {
      const [concurrency, calls] = level.split(':').map(Number);
      return { concurrency, calls };
    });
    const rows = [];
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const { concurrency, calls } of levels) {
        const order = round % 2 === 0 ? ['gateway', 'floor'] : ['floor', 'gateway'];
        const pair = { round: round + 1, concurrency };
        for (const name of order) {
          const front = fronts[name];
          const before = [cpuTicks(front.pid), cpuTicks(relay.child.pid)];
          const load = await sendChatCalls({ Pool, url: front.url, customer, calls, concurrency });
          const after = [cpuTicks(front.pid), cpuTicks(relay.child.pid)];
          if (load.failed > 0) throw new Error(`${name}: ${load.failed} calls failed: ${load.firstFailure}`);
          pair[name] = ((after[0] - before[0]) * (1000 / CLK_TCK)) / calls;
          pair[`${name}Relay`] = ((after[1] - before[1]) * (1000 / CLK_TCK)) / calls;
          pair[`${name}Rps`] = calls / load.seconds;
        }
        rows.push(pair);
        log(
          `round ${pair.round} c=${concurrency}: gateway ${pair.gateway.toFixed(3)} ms (relay ${pair.gatewayRelay.toFixed(3)}), ` +
            `floor ${pair.floor.toFixed(3)} ms (relay ${pair.floorRelay.toFixed(3)})`,
        );
      }
    }
    console.log(
      'CPU ms per call, front process (relay behind it), median of rounds; pairs where gateway > floor',
    );
    for (const { concurrency } of levels) {
      const of = rows.filter((r) => r.concurrency === concurrency);
      const m = (key) => median(of.map((r) => r[key])).toFixed(3);
      const above = of.filter((r) => r.gateway > r.floor).length;
      console.log(
        `  c=${String(concurrency).padEnd(3)} gateway ${m('gateway')} (relay ${m('gatewayRelay')}, ${m('gatewayRps')} req/s)  ` +
          `floor ${m('floor')} (relay ${m('floorRelay')}, ${m('floorRps')} req/s)  excess ${median(of.map((r) => r.gateway - r.floor)).toFixed(3)}  ${above}/${of.length}`,
      );
    }
  } finally {
    await bus.close().catch(() => undefined);
    await stopAll();
    rmSync(join(workDir, 'spool'), { recursive: true, force: true });
  }
}
