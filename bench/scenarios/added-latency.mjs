// Added latency: p50/p99 at concurrency 1 with an upstream that answers at once, each gateway minus
// direct, paired within a round; medians across rounds.
import { runChatLoad } from '../lib/k6.mjs';
import { log } from '../lib/log.mjs';
import { median } from '../lib/stats.mjs';
import { rotated } from '../lib/targets.mjs';

export async function addedLatency({ targets, upstream, rounds, durationSeconds }) {
  await upstream.setLatency(0);
  const byRound = [];
  for (let round = 0; round < rounds; round++) {
    const results = {};
    for (const target of rotated(targets, round)) {
      results[target.name] = await runChatLoad(target, { vus: 1, durationSeconds });
      log(
        `added latency, round ${round + 1}: ${target.name} p50 ${results[target.name].p50.toFixed(3)} ms, p99 ${results[target.name].p99.toFixed(3)} ms`,
      );
    }
    byRound.push(results);
  }
  return targets.map(({ name }) => ({
    target: name,
    p50: median(byRound.map((r) => r[name].p50)),
    p99: median(byRound.map((r) => r[name].p99)),
    addedP50: name === 'direct' ? 0 : median(byRound.map((r) => r[name].p50 - r.direct.p50)),
    addedP99: name === 'direct' ? 0 : median(byRound.map((r) => r[name].p99 - r.direct.p99)),
    errorRate: median(byRound.map((r) => r[name].errorRate)),
  }));
}
