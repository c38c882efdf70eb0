// Concurrent streams: N SSE streams of 64 chunks opened over a ramp and read to the end; held = every
// stream completed, none had a gap over 1 s between chunks, and all N were open at one moment
// (peakOpen, where the client reports it). The ramp opens 2 streams per ms (the listen backlogs are
// 511-4096) and the chunks are spaced so a stream outlasts the ramp by 2 s: 10,000 streams ramp over
// 5 s, 110 ms apart. Peak RSS of each target's processes is sampled meanwhile. A target that fails
// a level is not tried at the next.
import { STREAM_SHAPE } from '../lib/platform.mjs';
import { log } from '../lib/log.mjs';
import { sampleRss } from '../lib/rss.mjs';
import { runStreamLoad } from '../lib/stream-load.mjs';

const OPENS_PER_MS = 2;
const OVERLAP_MS = 2_000;

/** The ramp and the gap between chunks for a level, so that every stream is open at once. */
export function streamPacing(concurrency) {
  const rampMs = Math.ceil(concurrency / OPENS_PER_MS);
  const chunkMs = Math.max(STREAM_SHAPE.chunkMs, Math.ceil((rampMs + OVERLAP_MS) / STREAM_SHAPE.chunks));
  return { rampMs, chunkMs };
}

async function setChunkMs(upstream, chunkMs) {
  const res = await fetch(`${upstream.url}/__fake/options`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chunkMs }),
  });
  if (!res.ok) throw new Error(`fake upstream refused options: ${res.status} ${await res.text()}`);
}

export async function concurrentStreams({ targets, upstream, levels, processesOf }) {
  await upstream.setLatency(0);
  const rows = [];
  const givenUp = new Set();
  try {
    for (const concurrency of levels) {
      const { rampMs, chunkMs } = streamPacing(concurrency);
      await setChunkMs(upstream, chunkMs);
      for (const target of targets) {
        if (givenUp.has(target.name)) {
          rows.push({ target: target.name, concurrency, skipped: true });
          continue;
        }
        const sampler = sampleRss(processesOf(target.name));
        let r;
        try {
          r = await runStreamLoad(target, { mode: 'hold', concurrency, rampMs, timeoutMs: 300_000 });
        } catch (error) {
          r = { streams: concurrency, completed: 0, failed: concurrency, stalled: 0, error: error.message };
        }
        const rss = sampler.stop();
        const allOpen = r.peakOpen === undefined || r.peakOpen >= concurrency;
        const held = r.failed === 0 && r.stalled === 0 && allOpen;
        if (!held) givenUp.add(target.name);
        const failures = Object.entries(r.failures ?? {})
          .map(([reason, n]) => `${n}× ${reason}`)
          .join('; ');
        log(
          `streams ${concurrency} (${r.client ?? '?'} client, ramp ${rampMs} ms, chunks ${chunkMs} ms apart): ${target.name} completed ${r.completed}, failed ${r.failed}${failures ? ` (${failures})` : ''}, stalled ${r.stalled}, peak open ${r.peakOpen ?? '?'}, TTFT p99 ${r.ttftP99?.toFixed(1)} ms, max gap ${r.maxGap?.toFixed(0)} ms, RSS ${Object.entries(
            rss,
          )
            .map(([k, v]) => `${k} ${(v / 2 ** 20).toFixed(0)} MiB`)
            .join(', ')}`,
        );
        rows.push({ target: target.name, concurrency, held, rampMs, chunkMs, ...r, rss });
      }
    }
  } finally {
    await setChunkMs(upstream, STREAM_SHAPE.chunkMs);
  }
  return rows;
}
