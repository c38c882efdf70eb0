#!/usr/bin/env node
// The gateway→relay hop alone (issue 17): CPU per request of both ends of an undici client talking to a
// Node server, in interleaved rounds, over each of `--kinds`:
//   tcp   HTTP/1.1 over TCP loopback, a Pool of keep-alive connections (what the gateway does today)
//   unix  the same over a Unix domain socket
//   h2c   HTTP/2 cleartext over ONE TCP connection (undici `allowH2` + `useH2c`, node:http2's server
//         with the compatibility API, as Fastify's `http2: true` serves): every call a stream of it
// The server (a child process, as relay is) answers every POST with a chat-completion-sized JSON body
// and the headers relay sends; the client sends a chat-call-sized body, as the gateway does. CPU is
// utime + stime: the client's from process.cpuUsage(), the server's from /proc/<pid>/stat, both over
// the same calls.
//
// `--hold N` measures instead what N open streams held through the hop cost each side: the server
// answers with a head and one chunk and holds the body open; RSS and open descriptors of both sides
// are read once all N are open.
//
//   node bench/micro/hop.mjs [--kinds tcp,unix,h2c] [--calls 20000] [--concurrency 1,16] [--rounds 5]
//   node bench/micro/hop.mjs --kinds tcp,h2c --hold 2000
import { fork } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '1,16' },
    rounds: { type: 'string', default: '5' },
    serve: { type: 'string' },
  },
});

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

if (args.serve) {
  // The server: `--serve tcp` or `--serve unix:/path`, reporting where it listens.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
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
  });
  server.keepAliveTimeout = 60_000;
  const target = args.serve;
  const listening = () => process.send({ address: target === 'tcp' ? server.address().port : target });
  if (target === 'tcp') server.listen(0, '127.0.0.1', listening);
  else server.listen(target.slice('unix:'.length), listening);
} else {
  await main();
}

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function startServer(kind) {
  const socketPath = join(tmpdir(), `hop-${process.pid}-${Date.now()}.sock`);
  const child = fork(new URL(import.meta.url).pathname, [
    '--serve',
    kind === 'tcp' ? 'tcp' : `unix:${socketPath}`,
  ]);
  const { address } = await new Promise((resolve) => child.once('message', resolve));
  const pool =
    kind === 'tcp'
      ? new Pool(`http://127.0.0.1:${address}`, { connections: 128, pipelining: 1 })
      : new Pool('http://relay', { connections: 128, pipelining: 1, socketPath });
  return {
    pool,
    pid: child.pid,
    async stop() {
      await pool.close();
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
    const serverBefore = cpuTicks(server.pid);
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    await send(server.pool, calls, concurrency);
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(clientBefore);
    const serverMs = (cpuTicks(server.pid) - serverBefore) * 10;
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

async function main() {
  const calls = Number(args.calls);
  const levels = args.concurrency.split(',').map(Number);
  const results = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const concurrency of levels) {
      const order = round % 2 ? ['unix', 'tcp'] : ['tcp', 'unix'];
      for (const kind of order) {
        const r = await measure(kind, calls, concurrency);
        results.push(r);
        console.error(
          `round ${round + 1} c=${concurrency} ${kind.padEnd(4)}: client ${r.clientUs.toFixed(1)} µs, server ${r.serverUs.toFixed(1)} µs per request, ${r.rps.toFixed(0)} req/s`,
        );
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log('CPU µs per request, medians of the rounds (client = gateway side, server = relay side):');
  for (const concurrency of levels) {
    const row = {};
    for (const kind of ['tcp', 'unix']) {
      const of = results.filter((r) => r.kind === kind && r.concurrency === concurrency);
      row[kind] = {
        client: median(of.map((r) => r.clientUs)),
        server: median(of.map((r) => r.serverUs)),
        rps: median(of.map((r) => r.rps)),
      };
    }
    const both = (k) => row[k].client + row[k].server;
    console.log(
      `  c=${concurrency}: tcp client ${row.tcp.client.toFixed(1)} + server ${row.tcp.server.toFixed(1)} = ${both('tcp').toFixed(1)}; ` +
        `unix client ${row.unix.client.toFixed(1)} + server ${row.unix.server.toFixed(1)} = ${both('unix').toFixed(1)} ` +
        `(${(((both('unix') - both('tcp')) / both('tcp')) * 100).toFixed(0)} %); req/s ${row.tcp.rps.toFixed(0)} → ${row.unix.rps.toFixed(0)}`,
    );
  }
}
