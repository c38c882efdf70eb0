// What the in-thread PGlite instances run (issue 17, H62): preloaded into embedded mode's process,
// it wraps each registered PGlite's execProtocolRawStream (every exchange of the in-thread
// connections) and counts, per run of messages (a session reset, a Simple Query's text, a Parse +
// Bind + Execute of an unnamed statement, a Bind + Execute of a named one), how many times it ran
// and the thread's CPU around it (/proc/thread-self/schedstat, scheduler-tick granular: sum many).
// Every 2 s it appends the totals so far to <TOLLGATE_PGLITE_STATEMENTS>-<threadId>.jsonl.
//
//   node bench/embedded-memory.mjs --vus 1 --load 20 --threads \
//     --env TOLLGATE_PGLITE_STATEMENTS=/tmp/stmts \
//     --node-flags="--require $PWD/bench/micro/embedded-pglite-statements.preload.cjs"
//   node bench/micro/embedded-pglite-statements.preload.cjs /tmp/stmts-1.jsonl <calls of the load>
//
// The summary takes the 24 s window with the most CPU in PGlite (the load) and prints each run of
// messages's count and CPU, per batch and per call. Statement texts are cut at 70 characters;
// parameters (the usage batches) are never read.
const fs = require('node:fs');

if (require.main === module) {
  const [file, calls] = process.argv.slice(2);
  const snaps = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  let [a, b] = [snaps[0], snaps.at(-1)];
  let most = -1;
  for (let i = 0; i < snaps.length; i++)
    for (let j = i + 1; j < snaps.length && snaps[j].t - snaps[i].t <= 24_000; j++)
      if (snaps[j].ns - snaps[i].ns > most) [most, a, b] = [snaps[j].ns - snaps[i].ns, snaps[i], snaps[j]];
  const n = Number(calls);
  console.log(
    `window ${(b.t - a.t) / 1000} s: ${b.exchanges - a.exchanges} exchanges, ${b.parses - a.parses} Parse messages, ` +
      `${((b.ns - a.ns) / 1e6).toFixed(0)} ms in PGlite = ${((b.ns - a.ns) / 1e6 / n).toFixed(4)} ms a call`,
  );
  const rows = Object.entries(b.runs)
    .map(([key, s]) => [key, s.n - (a.runs[key]?.n ?? 0), s.ns - (a.runs[key]?.ns ?? 0)])
    .filter(([, count]) => count > 0)
    .sort((x, y) => y[2] - x[2]);
  for (const [key, count, ns] of rows.slice(0, 25))
    console.log(
      `${(ns / 1e6).toFixed(1).padStart(8)} ms ${String(count).padStart(6)} x ${(ns / count / 1e3).toFixed(0).padStart(6)} us ` +
        `${((ns / 1e3 / n) | 0).toString().padStart(4)} us/call  ${key.slice(0, 160)}`,
    );
  return;
}

const { threadId } = require('node:worker_threads');
const out = process.env.TOLLGATE_PGLITE_STATEMENTS;
const REGISTRY = Symbol.for('tollgate.persistence.in-thread-pglite');
const runNs = () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]);
const runs = new Map();
let exchanges = 0;
let parses = 0;
let ns = 0;
const text = (buf, at) => buf.toString('utf8', at, buf.indexOf(0, at)).replace(/\s+/g, ' ').slice(0, 70);

function describe(buf) {
  const keys = [];
  let parse;
  for (let offset = 0; buf[0] !== 0 && offset + 5 <= buf.length; offset += 1 + buf.readInt32BE(offset + 1)) {
    const type = String.fromCharCode(buf[offset]);
    if (type === 'Q') keys.push(`Q ${text(buf, offset + 5)}`);
    else if (type === 'P') {
      parses++;
      parse = text(buf, buf.indexOf(0, offset + 5) + 1);
    } else if (type === 'B') {
      const statement = text(buf, buf.indexOf(0, offset + 5) + 1);
      keys.push(
        parse === undefined
          ? `BE named ${statement}`
          : `PBE ${statement ? `named ${statement}: ` : ''}${parse}`,
      );
      parse = undefined;
    }
  }
  return keys.join(' | ') || '(startup)';
}

function wrap(db) {
  if (db.__statementsCounted) return;
  db.__statementsCounted = true;
  const exec = db.execProtocolRawStream.bind(db);
  db.execProtocolRawStream = async (message, options) => {
    const key = describe(Buffer.from(message.buffer, message.byteOffset, message.byteLength));
    const started = runNs();
    try {
      return await exec(message, options);
    } finally {
      const used = runNs() - started;
      exchanges++;
      ns += used;
      const run = runs.get(key) ?? { n: 0, ns: 0 };
      run.n++;
      run.ns += used;
      runs.set(key, run);
    }
  };
}

if (out) {
  setInterval(() => {
    const registry = globalThis[REGISTRY];
    if (registry === undefined) return;
    for (const { db } of registry.values()) wrap(db);
    if (exchanges === 0) return;
    const line = { t: Date.now(), exchanges, parses, ns, runs: Object.fromEntries(runs) };
    fs.appendFileSync(`${out}-${threadId}.jsonl`, `${JSON.stringify(line)}\n`);
  }, 2000).unref();
}
