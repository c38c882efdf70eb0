#!/usr/bin/env node
// What each load generator costs the shared cores per call (issue 17; bench/README.md, "Why wrk"):
// wrk and k6 in turn against the fake upstream alone (direct), at each --concurrency, for --seconds,
// --rounds times in alternating order. The generator's CPU is this process's reaped children's
// (cutime + cstime of /proc/self/stat, read around each run: the generator is the only child that ends
// inside the window), the upstream's from /proc as the bench reads it.
//
//   node bench/micro/load-generator-cost.mjs [--concurrency 1,16,64] [--seconds 10] [--rounds 2]
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as k6 from '../lib/k6.mjs';
import { startFakeUpstream } from '../lib/platform.mjs';
import { UPSTREAM_KEY, UPSTREAM_MODEL } from '../lib/seed.mjs';
import * as wrk from '../lib/wrk.mjs';

const { values: args } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1,16,64' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
  },
});
const TICK_MS = 10; // CLK_TCK 100

/** CPU ms of this process's reaped children so far. */
function childrenCpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // After "pid (comm) ": state is field 0 here; cutime and cstime are stat fields 16 and 17 (1-based).
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

const generators = { wrk: wrk.runChatLoad, k6: k6.runChatLoad };
// Found (and built or installed) before any window: those scripts are children too.
await k6.resolveK6();
await wrk.resolveWrk();
const upstream = await startFakeUpstream({ logDir: mkdtempSync(join(tmpdir(), 'tollgate-gen-')) });
const target = {
  name: 'direct',
  url: `${upstream.url}/v1/chat/completions`,
  headers: { authorization: `Bearer ${UPSTREAM_KEY}` },
  model: UPSTREAM_MODEL,
  processes: { own: { upstream: upstream.pid } },
};
try {
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const vus of args.concurrency.split(',').map(Number)) {
      const names = round % 2 ? ['wrk', 'k6'] : ['k6', 'wrk'];
      for (const name of names) {
        const before = childrenCpuMs();
        const r = await generators[name](target, { vus, durationSeconds: Number(args.seconds) });
        const generatorMs = childrenCpuMs() - before;
        console.log(
          `round ${round} c=${vus} ${name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(3)} p99 ${r.p99.toFixed(3)} ms; ` +
            `CPU ms/call: generator ${(generatorMs / r.served).toFixed(4)}, upstream ${r.cpu.ownPerCall.toFixed(4)}`,
        );
      }
    }
  }
} finally {
  await upstream.stop();
}
