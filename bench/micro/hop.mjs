#!/usr/bin/env node
// The gateway→relay hop alone (issue 17): CPU per request of both ends of an undici client talking to a
// Node server, in interleaved rounds, over each of `--kinds`:
//   tcp   HTTP/1.1 over TCP loopback, a Pool of keep-alive connections (what the gateway does today)
//   unix  the same over a Unix domain socket
//   h2c   HTTP/2 cleartext over ONE TCP connection (undici's H2CClient, node:http2's server
//         with the compatibility API, as Fastify's `http2: true` serves): every call a stream of it
//   memory  HTTP/1.1 through the same Pool over in-memory socket pairs (libs/runtime's InMemorySocket,
//         built: node scripts/build.mjs), the server in THIS process handed each pair's other end
//         with server.emit('connection'): embedded mode's hop. Client and server share one process, so
//         their CPU is reported together (as "client", server 0)
//   tcp-local  HTTP/1.1 over TCP loopback with the server in this process: embedded mode's hop before
//         the in-memory one (both ends on one event loop), to compare with memory on equal terms
// The server (a child process, as relay is) answers every POST with a chat-completion-sized JSON body
// and the headers relay sends; the client sends a chat-call-sized body, as the gateway does. CPU is
// utime + stime: the client's from process.cpuUsage(), the server's from /proc/<pid>/stat, both over
// the same calls.
//
// `--hold N` measures instead what N open streams held through the hop cost each side: the server
// answers with a head and one chunk and holds the body open; RSS and open descriptors of both sides
// are read once all N are open.
//
//   node bench/micro/hop.mjs [--kinds tcp,unix,h2c,memory,tcp-local] [--calls 20000] [--concurrency 1,16] [--rounds 5]
//   node bench/micro/hop.mjs --kinds tcp,h2c --hold 2000
import { fork } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createH2cServer } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { H2CClient, Pool } from 'undici';
import { cpuTicks } from '../lib/processes.mjs';

const { values: args } = parseArgs({
  options: {
    kinds: { type: 'string', default: 'tcp,unix' },
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '1,16' },
    rounds: { type: 'string', default: '5' },
    hold: { type: 'string' },
    serve: { type: 'string' },
  },
});

const KINDS = ['tcp', 'unix', 'h2c', 'memory', 'tcp-local'];
/** The kinds whose server runs in this process. */
const IN_PROCESS = new Set(['memory', 'tcp-local']);
// undici sends a POST on a connection only when nothing else is in flight on it unless the request
// says it may be retried: on one HTTP/2 connection that would serialise every call (HTTP/1.1 pools
// are not affected: one call per connection). A buffered body may be marked so; a streamed one
// (the gateway streams large bodies) is serialised regardless.
const IDEMPOTENT = true;

const ANSWER = JSON.stringify({
  id: 'chatcmpl-0123456789abcdef',
  object: 'chat.completion',
  created: 1_764_000_000,
  model: 'gpt-4o-mini',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Hello! How can I help you today?' },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21, cost: 0.0000072 },
});
const REQUEST = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Say hello in one short sentence, please.' }],
  max_tokens: 32,
});
const FIRST_CHUNK = `data: ${JSON.stringify({ id: 'chatcmpl-0', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Hi' } }] })}\n\n`;

if (args.serve) {
  serve(args.serve);
} else {
  await main();
}

/** The server: `--serve tcp|h2c|unix:/path`, reporting where it listens; `/hold` streams stay open. */
function serve(target) {
  const server =
    target === 'h2c'
      ? createH2cServer({ settings: { maxConcurrentStreams: 100_000 } }, handle)
      : createServer({ keepAliveTimeout: 60_000 }, handle);
  const listening = () =>
    process.send({ address: target.startsWith('unix:') ? target : server.address().port });
  if (target.startsWith('unix:')) server.listen(target.slice('unix:'.length), listening);
  else server.listen(0, '127.0.0.1', listening);
  process.on('message', (message) => {
    if (message === 'usage') process.send({ usage: usageOf(process.pid) });
  });
}

/** What the server answers: a chat completion, or on `/hold` a stream's head and first chunk, held open. */
function handle(req, res) {
  req.resume();
  req.on('end', () => {
    if (req.url === '/hold') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(FIRST_CHUNK);
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(ANSWER),
      'x-request-id': req.headers['x-request-id'] ?? 'none',
      'x-tollgate-cost': '0.0000072',
      'x-ratelimit-limit-requests': '600',
      'x-ratelimit-remaining-requests': '599',
    });
    res.end(ANSWER);
  });
}

function usageOf(pid) {
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
  return { rss, fds: readdirSync(`/proc/${pid}/fd`).length };
}

/** The server in this process: over in-memory pairs (memory) or TCP loopback (tcp-local). */
async function startLocalServer(kind) {
  const server = createServer({ keepAliveTimeout: 60_000 }, handle);
  const sockets = new Set();
  let pool;
  if (kind === 'memory') {
    const { InMemorySocket } = await import('../../libs/runtime/dist/in-memory-socket.js');
    pool = new Pool('http://relay', {
      connections: 128 * 100,
      pipelining: 1,
      connect: (_options, callback) => {
        const [client, end] = InMemorySocket.pair();
        sockets.add(end);
        end.once('close', () => sockets.delete(end));
        server.emit('connection', end);
        process.nextTick(callback, null, client);
      },
    });
  } else {
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    pool = new Pool(`http://127.0.0.1:${server.address().port}`, { connections: 128 * 100, pipelining: 1 });
  }
  return {
    pool,
    pid: undefined,
    usage: async () => ({ rss: 0, fds: 0 }),
    async stop() {
      await pool.destroy();
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

async function startServer(kind) {
  if (IN_PROCESS.has(kind)) return startLocalServer(kind);
  const socketPath = join(tmpdir(), `hop-${process.pid}-${Date.now()}.sock`);
  const child = fork(new URL(import.meta.url).pathname, [
    '--serve',
    kind === 'unix' ? `unix:${socketPath}` : kind,
  ]);
  const { address } = await new Promise((resolve) => child.once('message', resolve));
  const pool =
    kind === 'unix'
      ? new Pool('http://relay', { connections: 128, pipelining: 1, socketPath })
      : kind === 'h2c'
        ? new H2CClient(`http://127.0.0.1:${address}`, { maxConcurrentStreams: 100_000, pipelining: 100_000 })
        : new Pool(`http://127.0.0.1:${address}`, { connections: 128 * 100, pipelining: 1 });
  return {
    pool,
    pid: child.pid,
    usage: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve(m.usage));
        child.send('usage');
      }),
    async stop() {
      await pool.destroy();
      child.kill();
      rmSync(socketPath, { force: true });
    },
  };
}

async function send(pool, calls, concurrency) {
  let next = 0;
  async function worker() {
    while (next < calls) {
      next++;
      const { statusCode, body } = await pool.request({
        path: '/v1/chat/completions',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-x', 'x-request-id': 'r' },
        body: REQUEST,
        idempotent: IDEMPOTENT,
      });
      await body.text();
      if (statusCode !== 200) throw new Error(`status ${statusCode}`);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function measure(kind, calls, concurrency) {
  const server = await startServer(kind);
  try {
    await send(server.pool, 3000, concurrency);
    const serverBefore = server.pid ? cpuTicks(server.pid) : 0;
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    await send(server.pool, calls, concurrency);
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(clientBefore);
    const serverMs = server.pid ? (cpuTicks(server.pid) - serverBefore) * 10 : 0;
    return {
      kind,
      concurrency,
      rps: calls / seconds,
      clientUs: (client.user + client.system) / calls,
      serverUs: (serverMs * 1000) / calls,
    };
  } finally {
    await server.stop();
  }
}

/** Opens `count` streams through the hop and holds them; what both sides hold then, per stream. */
async function hold(kind, count) {
  const server = await startServer(kind);
  try {
    const client0 = usageOf(process.pid);
    const server0 = await server.usage();
    const bodies = [];
    const started = performance.now();
    for (let opened = 0; opened < count; opened += 500) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(500, count - opened) }, async () => {
          const { statusCode, body } = await server.pool.request({
            path: '/hold',
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: REQUEST,
            idempotent: IDEMPOTENT,
          });
          if (statusCode !== 200) throw new Error(`status ${statusCode}`);
          await new Promise((resolve) => body.once('data', resolve));
          return body;
        }),
      );
      bodies.push(...batch);
    }
    const openSeconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const client1 = usageOf(process.pid);
    const server1 = await server.usage();
    for (const body of bodies) body.destroy();
    return {
      kind,
      count,
      openSeconds,
      clientKiB: (client1.rss - client0.rss) / 1024 / count,
      serverKiB: (server1.rss - server0.rss) / 1024 / count,
      clientFds: client1.fds - client0.fds,
      serverFds: server1.fds - server0.fds,
    };
  } finally {
    await server.stop();
  }
}

async function main() {
  const kinds = args.kinds.split(',');
  for (const kind of kinds) if (!KINDS.includes(kind)) throw new Error(`--kinds takes ${KINDS.join(', ')}`);
  if (args.hold) {
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
        const r = await hold(kind, Number(args.hold));
        console.log(
          `round ${round + 1} ${kind.padEnd(9)}: ${r.count} streams open in ${r.openSeconds.toFixed(2)} s; ` +
            `client +${r.clientKiB.toFixed(1)} KiB and server +${r.serverKiB.toFixed(1)} KiB RSS per stream; ` +
            `descriptors client +${r.clientFds}, server +${r.serverFds}`,
        );
      }
    }
    return;
  }
  const calls = Number(args.calls);
  const levels = args.concurrency.split(',').map(Number);
  const results = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const concurrency of levels) {
      for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
        const r = await measure(kind, calls, concurrency);
        results.push(r);
        console.error(
          `round ${round + 1} c=${concurrency} ${kind.padEnd(9)}: client ${r.clientUs.toFixed(1)} µs, server ${r.serverUs.toFixed(1)} µs per request, ${r.rps.toFixed(0)} req/s`,
        );
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log('CPU µs per request, medians of the rounds (client = gateway side, server = relay side):');
  for (const concurrency of levels) {
    const cells = kinds.map((kind) => {
      const of = results.filter((r) => r.kind === kind && r.concurrency === concurrency);
      const client = median(of.map((r) => r.clientUs));
      const server = median(of.map((r) => r.serverUs));
      const rps = median(of.map((r) => r.rps));
      return `${kind} client ${client.toFixed(1)} + server ${server.toFixed(1)} = ${(client + server).toFixed(1)} (${rps.toFixed(0)} req/s)`;
    });
    console.log(`  c=${concurrency}: ${cells.join('; ')}`);
  }
}
