// Added latency: p50/p99 at concurrency 1 with an upstream that answers at once, each gateway minus
// direct, paired within a round; medians across rounds. The CPU each target's processes spent per call
// over the same windows (lib/cpu.mjs) comes with it: at c=1 it is the cost of a lone call.
import { medianCpu } from '../lib/cpu.mjs';
import { runChatLoad } from '../lib/chat-load.mjs';
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
      const r = results[target.name];
      log(
        `added latency, round ${round + 1}: ${target.name} p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms, CPU ${r.cpu?.ownPerCall.toFixed(3)} ms/call`,
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
    rps: median(byRound.map((r) => r[name].rps)),
    cpu: medianCpu(byRound.map((r) => r[name].cpu)),
  }));
}
