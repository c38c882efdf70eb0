// Distributed Tollgate's warm-up goes on until its Kafka broker has finished compiling.
import { jitCompilerCpuMs } from './proc.mjs';

/**
 * A Kafka broker compiles its own code for minutes after it starts (bench/ANALYSIS.md, H46), and a
 * lone call that meets the compiler waits for a core: h129 read the broker's JIT at 1.0–1.2 ms of each
 * slow call of a c=1 window on brokers 1–2 minutes old, 0.12 ms at 5–11 minutes. A deployment's broker
 * finished long ago; the bench's own starts with the run, a minute or two before the first scenario.
 * So `target` (distributed Tollgate) is loaded in steps, half of each at 8 connections and half at one
 * (the broker compiles what a lone call's fetches and produces run too), until a step's compiling is
 * under `quietMsPerSecond` of CPU a second, or `maxSeconds` have passed. Only the broker's compiler
 * threads are read: the other targets have no broker, and their own code was warmed before this.
 */
export async function warmBrokerUntilCompiled({
  target,
  brokerPid,
  runLoad,
  maxSeconds,
  stepSeconds = 10,
  quietMsPerSecond = 5,
}) {
  const steps = [];
  const half = Math.max(1, Math.round(stepSeconds / 2));
  let quiet = false;
  while (!quiet && steps.length * 2 * half < maxSeconds) {
    const before = jitCompilerCpuMs(brokerPid);
    await runLoad(target, { vus: 8, durationSeconds: half });
    await runLoad(target, { vus: 1, durationSeconds: half });
    const msPerSecond = (jitCompilerCpuMs(brokerPid) - before) / (2 * half);
    steps.push(msPerSecond);
    quiet = msPerSecond < quietMsPerSecond;
  }
  return { seconds: steps.length * 2 * half, quiet, quietMsPerSecond, jitMsPerSecond: steps };
}
