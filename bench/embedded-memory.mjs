#!/usr/bin/env node
// Embedded mode's resident memory (bench/ANALYSIS.md, "Embedded memory"): the platform as the bench
// starts it (fresh data directory, the bench's customer seeded), its RSS idle, its peak RSS under a k6
// load of non-streaming calls on the fake upstream, and idle again after. Build first.
//
//   node bench/embedded-memory.mjs [--idle 20] [--load 30] [--vus 64]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedTollgate } from './lib/embedded.mjs';
import { runChatLoad } from './lib/k6.mjs';
import { startFakeUpstream } from './lib/platform.mjs';
import { sampleRss, treeRss } from './lib/rss.mjs';

const { values } = parseArgs({
  options: {
    idle: { type: 'string', default: '20' },
    load: { type: 'string', default: '30' },
    vus: { type: 'string', default: '64' },
  },
});
const idleMs = Number(values.idle) * 1000;
const mb = (bytes) => Math.round(bytes / 2 ** 20);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const logDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-memory-'));
const upstream = await startFakeUpstream({ logDir });
const embedded = await startEmbeddedTollgate({ upstreamUrl: upstream.url, logDir, runId: 'memory' });
const rss = () => mb(treeRss({ embedded: embedded.pid }).embedded);
try {
  await sleep(idleMs);
  const idle = rss();
  const sampler = sampleRss({ embedded: embedded.pid });
  const load = await runChatLoad(
    {
      url: `${embedded.url}/v1/chat/completions`,
      headers: { authorization: `Bearer ${embedded.customer.apiKey}` },
      model: embedded.customer.model,
    },
    { vus: Number(values.vus), durationSeconds: Number(values.load) },
  );
  const peak = mb(sampler.stop().embedded);
  await sleep(idleMs);
  console.log(
    JSON.stringify({
      idleMb: idle,
      underLoadPeakMb: peak,
      idleAfterLoadMb: rss(),
      load: {
        vus: Number(values.vus),
        seconds: Number(values.load),
        rps: Math.round(load.rps),
        errorRate: load.errorRate,
      },
      logDir,
    }),
  );
} finally {
  await embedded.stop();
  await upstream.stop();
}
