// CPU profile of the hot path: a second Tollgate (one worker each, so one profile per service) with
// V8's sampling profiler (what --cpu-prof uses; started by lib/cpu-profiler.preload.cjs), driven by the
// load generator at the throughput scenario's load; self time per function and per package of the
// gateway and relay profiles. The smoke run profiles the Tollgate it measured instead (started with
// `profilerEnv`), which spares npm test a third platform start.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChatLoad } from '../lib/chat-load.mjs';
import { log } from '../lib/log.mjs';
import { summarizeCpuProfile } from '../lib/cpu-profile.mjs';
import { startTollgate } from '../lib/platform.mjs';
import { benchTargets } from '../lib/targets.mjs';

/** The environment that makes gateway and relay profilable: the profiler waits for `profileDir/start`. */
export function profilerEnv(profileDir) {
  mkdirSync(profileDir, { recursive: true });
  return {
    NODE_OPTIONS: `--require ${join(dirname(fileURLToPath(import.meta.url)), '..', 'lib', 'cpu-profiler.preload.cjs')}`,
    BENCH_CPU_PROFILE_DIR: profileDir,
  };
}

/**
 * `running`: a Tollgate already started with `profilerEnv(profileDir)` (smoke), profiled and then
 * stopped here (profiles are written at exit); without it, one of its own is started and stopped.
 */
export async function profileHotPath({
  infra,
  upstream,
  logDir,
  runId,
  durationSeconds,
  vus = 32,
  running,
  profileDir = join(logDir, 'cpu-profiles'),
}) {
  await upstream.setLatency(0);
  const tollgate =
    running ??
    (await startTollgate({
      infra,
      upstreamUrl: upstream.url,
      workers: 1,
      logDir: join(logDir, 'profiled-services'),
      runId: `${runId}_prof`,
      extraEnv: profilerEnv(profileDir),
    }));
  const pids = {
    gateway: tollgate.platform.services.gateway.pid,
    relay: tollgate.platform.services.relay.pid,
  };
  let load;
  try {
    const [, target] = benchTargets({
      upstreamUrl: upstream.url,
      gatewayUrl: tollgate.platform.url,
      customer: tollgate.customer,
    });
    // A short warm-up (a running Tollgate is warm already), then the profilers start (see the
    // preload) for the measured load only.
    if (!running) await runChatLoad(target, { vus, durationSeconds: 3 });
    writeFileSync(join(profileDir, 'start'), '');
    await new Promise((r) => setTimeout(r, 200));
    load = await runChatLoad(target, { vus, durationSeconds });
    log(
      `profiled run: ${load.rps.toFixed(0)} req/s at c=${vus}, p99 ${load.p99.toFixed(1)} ms, errors ${(load.errorRate * 100).toFixed(2)}%`,
    );
  } finally {
    // Profiles are written when the processes exit.
    await tollgate.stop();
  }
  const files = readdirSync(profileDir);
  const summaries = {};
  for (const [service, pid] of Object.entries(pids)) {
    const file = files.find((f) => f === `${service}.${pid}.cpuprofile`);
    if (!file) throw new Error(`no CPU profile of ${service} (pid ${pid}) in ${profileDir}`);
    summaries[service] = { file: join(profileDir, file), ...summarizeCpuProfile(join(profileDir, file)) };
  }
  return { vus, rps: load.rps, p99: load.p99, durationSeconds, profileDir, services: summaries };
}
