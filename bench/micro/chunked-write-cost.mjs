#!/usr/bin/env node
// What one piece of a chunked HTTP/1.1 response costs the server, written through Node's own chunked
// framing (`res.write(piece)`: four corked socket writes and a writev) or framed by the caller as one
// string or Buffer (`frameChunksItself`, as relay's FastifyClientReply and the gateway's stream proxy
// do since h119). A child process serves --streams kept-open responses; each round writes one piece
// to every response, --batch responses a turn (as relay takes a batch of upstream chunks), and the
// child reports its CPU and what V8 allocated and promoted per piece (from --trace-gc-nvp). The
// parent holds the connections and reads and drops the bytes. Variants alternate: A B A B …
//
//   node scripts/build.mjs
//   node bench/micro/chunked-write-cost.mjs [--streams 2000] [--rounds 100] [--batch 200]
//        [--piece string|buffer] [--pairs 3]
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    child: { type: 'string' },
    streams: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '100' },
    batch: { type: 'string', default: '200' },
    piece: { type: 'string', default: 'string' },
    pairs: { type: 'string', default: '3' },
  },
});
const STREAMS = Number(args.streams);
const ROUNDS = Number(args.rounds);
const BATCH = Number(args.batch);
/** An OpenAI chat chunk of one token, as relay writes it. */
const EVENT =
  'data: {"id":"chatcmpl-7f3a9c","object":"chat.completion.chunk","created":1764460800,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":" token"},"finish_reason":null}]}\n\n';

if (args.child !== undefined) await serve(args.child);
else await measure();

async function serve(variant) {
  const { frameChunksItself, frameChunk, LAST_CHUNK } = await import(
    fileURLToPath(new URL('../../libs/runtime/dist/chunked-framing.js', import.meta.url))
  );
  const piece = args.piece === 'buffer' ? Buffer.from(EVENT) : EVENT;
  const responses = [];
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const own = variant === 'own' && frameChunksItself(res);
    res.write(own ? frameChunk(piece) : piece);
    responses.push({ res, own });
    if (responses.length === STREAMS) process.send({ type: 'open' });
  });
  server.keepAliveTimeout = 0;
  server.listen(0, '127.0.0.1', () => process.send({ type: 'port', port: server.address().port }));
  process.on('message', async (message) => {
    if (message.type !== 'run') return;
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const cpu = process.cpuUsage();
    const started = performance.now();
    console.log('h119-mark start');
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < responses.length; i++) {
        const { res, own } = responses[i];
        res.write(own ? frameChunk(piece) : piece);
        if ((i + 1) % BATCH === 0) await turn();
      }
      await turn();
    }
    console.log('h119-mark end');
    const used = process.cpuUsage(cpu);
    const wallMs = performance.now() - started;
    for (const { res, own } of responses) res.end(own ? LAST_CHUNK : undefined);
    process.send({ type: 'done', cpuMs: (used.user + used.system) / 1000, wallMs });
  });
}

async function runVariant(variant) {
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=32',
      '--trace-gc-nvp',
      fileURLToPath(import.meta.url),
      '--child',
      variant,
      ...passArgs(),
    ],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const next = (type) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m.type === type) {
          child.off('message', on);
          resolve(m);
        }
      };
      child.on('message', on);
    });
  const { port } = await next('port');
  const opened = next('open');
  let bytes = 0;
  for (let i = 0; i < STREAMS; i++) {
    request({ host: '127.0.0.1', port, path: '/s', agent: false }, (res) => {
      res.on('data', (d) => (bytes += d.length));
    }).end();
    if (i % 200 === 199) await new Promise((r) => setImmediate(r));
  }
  await opened;
  await new Promise((r) => setTimeout(r, 500));
  const done = next('done');
  child.send({ type: 'run' });
  const { cpuMs, wallMs } = await done;
  await new Promise((r) => setTimeout(r, 300));
  child.kill();
  const window = out.slice(out.indexOf('h119-mark start'), out.indexOf('h119-mark end'));
  let allocated = 0;
  let promoted = 0;
  let scavenges = 0;
  for (const line of window.split('\n')) {
    if (!line.includes('pause=')) continue;
    allocated += Number(/ allocated=(\d+)/.exec(line)?.[1] ?? 0);
    promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
    if (line.includes('gc=s')) scavenges++;
  }
  const pieces = STREAMS * ROUNDS;
  return {
    variant,
    cpuUsPerPiece: (cpuMs * 1000) / pieces,
    allocatedBPerPiece: allocated / pieces,
    promotedBPerPiece: promoted / pieces,
    scavenges,
    wallMs,
  };
}

function passArgs() {
  return ['--streams', args.streams, '--rounds', args.rounds, '--batch', args.batch, '--piece', args.piece];
}

async function measure() {
  for (let pair = 0; pair < Number(args.pairs); pair++) {
    for (const variant of pair % 2 === 0 ? ['node', 'own'] : ['own', 'node']) {
      const r = await runVariant(variant);
      console.log(
        `${r.variant.padEnd(4)} ${args.piece}: ${r.cpuUsPerPiece.toFixed(2)} µs CPU, ${r.allocatedBPerPiece.toFixed(0)} B allocated, ${r.promotedBPerPiece.toFixed(0)} B promoted a piece (${r.scavenges} scavenges, ${(r.wallMs / 1000).toFixed(1)} s)`,
      );
    }
  }
}
