#!/usr/bin/env node
// What opening one more call costs a connection pool while N calls are held open on it (issue 17, H45):
// undici's Pool against the FreeListPool gateway and relay use (libs/runtime/dist/free-list-pool.js,
// built by `node scripts/build.mjs` or `npx tsc -b tsconfig.build.json`). One process: a loopback HTTP
// server that never answers, and each pool dispatching calls to it one at a time, each held (pipelining 1:
// a connection each). The figure is the CPU time of the dispatch() calls alone (process.cpuUsage around
// each, summed), read for the calls made while between N-step and N calls were already held, for each N of
// --levels. That is what a stream's opening pays the pool on top of its connection, in gateway (towards
// relay) and in relay (towards the provider).
//
//   node bench/micro/stream-pool.mjs [--levels 1000,4000,8000] [--step 500] [--root /other/checkout]
//
// Each held call is a connection of the pool and one of the server: 2 × the largest level descriptors.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '..', '..') },
    levels: { type: 'string', default: '1000,4000,8000' },
    step: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '3' },
  },
});
const root = resolve(args.root);
const requireFromRoot = createRequire(join(root, 'package.json'));
const { Pool } = requireFromRoot('undici');
const { FreeListPool } = requireFromRoot(join(root, 'libs/runtime/dist/free-list-pool.js'));
const levels = args.levels.split(',').map(Number);
const step = Number(args.step);

const held = new Set();
const server = createServer((_req, res) => held.add(res));
server.keepAliveTimeout = 0;
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const origin = `http://127.0.0.1:${server.address().port}`;

/** A call that is never answered: the handler only remembers its abort. */
class HeldCall {
  onConnect(abort) {
    this.abort = abort;
  }
  onHeaders() {
    return true;
  }
  onData() {
    return true;
  }
  onComplete() {}
  onError() {}
}

async function measure(makePool) {
  const pool = makePool();
  const calls = [];
  const rows = [];
  let from = 0;
  for (const level of levels) {
    let cpuUs = 0;
    let measured = 0;
    while (calls.length < level) {
      const call = new HeldCall();
      const before = process.cpuUsage();
      pool.dispatch({ method: 'GET', path: '/held' }, call);
      const used = process.cpuUsage(before);
      calls.push(call);
      if (calls.length > level - step) {
        cpuUs += used.user + used.system;
        measured++;
      }
      // Let each connection open and its request arrive before the next: the pool then holds `level`.
      if (calls.length % 100 === 0)
        while (held.size < calls.length - 50) await new Promise((r) => setImmediate(r));
    }
    while (held.size < calls.length) await new Promise((r) => setImmediate(r));
    rows.push({ from, level, usPerDispatch: cpuUs / measured });
    from = level;
  }
  for (const call of calls) call.abort?.(new Error('done'));
  for (const res of held) res.destroy();
  held.clear();
  await pool.destroy().catch(() => undefined);
  return rows;
}

const options = { connections: 20_000, pipelining: 1, bodyTimeout: 0, headersTimeout: 0 };
const kinds = {
  'undici Pool': () => new Pool(origin, options),
  FreeListPool: () => new FreeListPool(origin, options),
};
const results = {};
for (let round = 0; round < Number(args.rounds); round++) {
  for (const [name, make] of round % 2 === 0 ? Object.entries(kinds) : Object.entries(kinds).reverse()) {
    const rows = await measure(make);
    (results[name] ??= []).push(rows);
    console.error(
      `round ${round + 1} ${name}: ${rows.map((r) => `${r.level} held: ${r.usPerDispatch.toFixed(1)} µs per dispatch`).join(', ')}`,
    );
    await new Promise((r) => setTimeout(r, 500));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, runs] of Object.entries(results)) {
  console.log(
    `${name}: ${levels.map((level, i) => `${level} held ${median(runs.map((rows) => rows[i].usPerDispatch)).toFixed(1)} µs`).join(', ')} (CPU per dispatch, median of ${runs.length})`,
  );
}
server.close();
server.closeAllConnections();
