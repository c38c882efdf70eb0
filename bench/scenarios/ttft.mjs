// Added time to first token: one short stream after another (4 chunks 5 ms apart, so that a window of
// a few seconds times hundreds of streams, not a handful), time from sending the request to the first
// chunk with generated text; each target minus the baseline (the direct call to the upstream unless
// told otherwise), paired within a round. The fake upstream's stream shape is put back afterwards.
import { log } from '../lib/log.mjs';
import { STREAM_SHAPE } from '../lib/platform.mjs';
import { median } from '../lib/stats.mjs';
import { runStreamLoad } from '../lib/stream-load.mjs';
import { rotated } from '../lib/targets.mjs';

export const TTFT_STREAM = { chunks: 4, chunkMs: 5 };

export async function timeToFirstToken({ targets, upstream, rounds, durationSeconds, baseline = 'direct' }) {
  await upstream.setOptions({ latencyMs: 0, ...TTFT_STREAM });
  const byRound = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const results = {};
      for (const target of rotated(targets, round)) {
        results[target.name] = await runStreamLoad(target, { mode: 'ttft', durationSeconds });
        const r = results[target.name];
        log(
          `TTFT, round ${round + 1}: ${target.name} ${r.streams} streams, p50 ${r.ttftP50?.toFixed(3)} ms, p99 ${r.ttftP99?.toFixed(3)} ms, failed ${r.failed}`,
        );
      }
      byRound.push(results);
    }
  } finally {
    await upstream.setOptions({ chunks: STREAM_SHAPE.chunks, chunkMs: STREAM_SHAPE.chunkMs });
  }
  return targets.map(({ name }) => ({
    target: name,
    ...TTFT_STREAM,
    streams: median(byRound.map((r) => r[name].streams)),
    failed: byRound.reduce((sum, r) => sum + r[name].failed, 0),
    p50: median(byRound.map((r) => r[name].ttftP50 ?? Number.NaN)),
    p99: median(byRound.map((r) => r[name].ttftP99 ?? Number.NaN)),
    addedP50: name === baseline ? 0 : median(byRound.map((r) => r[name].ttftP50 - r[baseline].ttftP50)),
    addedP99: name === baseline ? 0 : median(byRound.map((r) => r[name].ttftP99 - r[baseline].ttftP99)),
  }));
}
