#!/usr/bin/env node
// The stage table of one call at a time through gateway and relay (issue 17, h113): reads what
// ttft-stages.preload.cjs wrote in each process and the windows of a ttft-streams.mjs --variants run, and
// prints, per variant, the median time of each stage from the gateway's read of the client's request.
//
//   mkdir -p /tmp/stages
//   node bench/micro/ttft-streams.mjs --roots DIR --rounds 3 --seconds 5 --variants stream,plain-gap \
//     --service-env NODE_OPTIONS=--require=$PWD/bench/micro/ttft-stages.preload.cjs,TTFT_STAGES_DIR=/tmp/stages \
//     --out /tmp/stages/run.json
//   node bench/micro/ttft-stages.mjs /tmp/stages/run.json /tmp/stages
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [runFile, stagesDir] = process.argv.slice(2);
if (!runFile || !stagesDir) {
  console.error('node bench/micro/ttft-stages.mjs RUN.json STAGES_DIR');
  process.exit(2);
}
const run = JSON.parse(readFileSync(runFile, 'utf8'));
const files = readdirSync(stagesDir)
  .filter((f) => /^stages-\d+\.json$/.test(f))
  .map((f) => JSON.parse(readFileSync(join(stagesDir, f), 'utf8')));
// The gateway's calls are the ones whose next hop read a request that some other process read next.
const byFirstIn = files.map((f) => ({ ...f, calls: f.calls.filter((c) => c.in !== undefined) }));
const isRelay = (f) => f.calls.some((c) => c.handler !== undefined);
const relay = byFirstIn.find(isRelay);
const gateway = byFirstIn.find((f) => !isRelay(f) && f.calls.length > 0);
if (!relay || !gateway) {
  console.error(`need a gateway's and a relay's stages in ${stagesDir}`);
  process.exit(1);
}

/** The relay's call for a gateway call: the first one read after the gateway wrote it, within 50 ms. */
function relayCallOf(g, from) {
  for (let i = from; i < relay.calls.length; i++) {
    const r = relay.calls[i];
    if (r.in < g.hopWritten) continue;
    return r.in - g.hopWritten < 50 ? { r, next: i + 1 } : { r: undefined, next: i };
  }
  return { r: undefined, next: relay.calls.length };
}

const STAGES = [
  ['gateway: request read → written to relay', (g) => g.hopWritten - g.in],
  ['→ relay reads it', (g, r) => r.in - g.hopWritten],
  ['relay: read → ChatRelay.handle', (g, r) => r.handler - r.in],
  ['handle → UpstreamClient.send', (g, r) => r.sent - r.handler],
  ['send → upstream request written', (g, r) => r.hopWritten - r.sent],
  ['→ upstream answer read (round trip)', (g, r) => r.hopRead - r.hopWritten],
  ['→ send resolved (headers)', (g, r) => r.hopHeaders - r.hopRead],
  ['→ ChatStreamRelay.relay', (g, r) => r.relayStarts - r.hopHeaders],
  ['→ first write or send', (g, r) => r.firstWrite - (r.relayStarts ?? r.hopHeaders)],
  ['→ relay socket write', (g, r) => r.replied - r.firstWrite],
  ['→ gateway reads it', (g, r) => g.hopRead - r.replied],
  ['gateway: read → written to the client', (g) => g.replied - g.hopRead],
  ['total: gateway in → out', (g) => g.replied - g.in],
  ['of which relay: in → out', (g, r) => r.replied - r.in],
];

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor(s.length / 2)];
};

const windows = [];
for (const entry of run.variantRounds) {
  for (const [label, w] of Object.entries(entry)) {
    if (w && typeof w === 'object' && 'from' in w)
      windows.push({ variant: entry.variant, label, from: w.from, to: w.to });
  }
}

const rows = new Map();
let next = 0;
for (const g of gateway.calls) {
  if (g.hopWritten === undefined || g.replied === undefined) continue;
  const found = relayCallOf(g, next);
  next = found.next;
  const r = found.r;
  if (!r || r.replied === undefined) continue;
  const w = windows.find((x) => g.in >= x.from && g.in <= x.to);
  if (!w) continue;
  const key = `${w.variant} ${w.label}`;
  if (!rows.has(key)) rows.set(key, []);
  rows.get(key).push({ g, r });
}

const keys = [...rows.keys()];
console.log(`| stage (ms, medians) | ${keys.join(' | ')} |`);
console.log(`| --- | ${keys.map(() => '---').join(' | ')} |`);
console.log(`| calls | ${keys.map((k) => rows.get(k).length).join(' | ')} |`);
for (const [name, of] of STAGES) {
  console.log(
    `| ${name} | ${keys.map((k) => median(rows.get(k).map(({ g, r }) => of(g, r))).toFixed(3)).join(' | ')} |`,
  );
}
