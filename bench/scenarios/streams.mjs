// Concurrent streams: N SSE streams (64 chunks, 20 ms apart) opened together and read to the end;
// held = every stream completed and none had a gap over 1 s between chunks. Peak RSS of each
// target's processes is sampled meanwhile. A target that fails a level is not tried at the next.
import { log } from '../lib/log.mjs';
import { sampleRss } from '../lib/rss.mjs';
import { runStreamLoad } from '../lib/stream-load.mjs';

export async function concurrentStreams({ targets, upstream, levels, processesOf }) {
  await upstream.setLatency(0);
  const rows = [];
  const givenUp = new Set();
  for (const concurrency of levels) {
    for (const target of targets) {
      if (givenUp.has(target.name)) {
        rows.push({ target: target.name, concurrency, skipped: true });
        continue;
      }
      const sampler = sampleRss(processesOf(target.name));
      let r;
      try {
        r = await runStreamLoad(target, { mode: 'hold', concurrency, timeoutMs: 300_000 });
      } catch (error) {
        r = { streams: concurrency, completed: 0, failed: concurrency, stalled: 0, error: error.message };
      }
      const rss = sampler.stop();
      const held = r.failed === 0 && r.stalled === 0;
      if (!held) givenUp.add(target.name);
      log(
        `streams ${concurrency}: ${target.name} completed ${r.completed}, failed ${r.failed}, stalled ${r.stalled}, TTFT p99 ${r.ttftP99?.toFixed(1)} ms, RSS ${Object.entries(
          rss,
        )
          .map(([k, v]) => `${k} ${(v / 2 ** 20).toFixed(0)} MiB`)
          .join(', ')}`,
      );
      rows.push({ target: target.name, concurrency, held, ...r, rss });
    }
  }
  return rows;
}
