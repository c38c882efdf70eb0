// Concurrent streams: N SSE streams opened over a ramp and read to the end; held = every stream
// completed, none had a gap over 1 s between chunks, and all N were open at one moment (peakOpen,
// where the client reports it). The ramp opens 1 stream per ms and the fake upstream sends a chunk
// every 400 ms, enough chunks for a stream to last twice the ramp plus 3 s (10,000 streams: 10 s ramp,
// 58 chunks, 23 s): the first stream must still be open when the last one opens, and the last one
// opens after the ramp AND the time the target takes to answer it, which under a 1,000/s ramp on two
// shared cores has been up to 10 s (bench/ANALYSIS.md, h111). The level measures holding streams, not
// pushing chunks (10,000 streams at 20 ms apart would be 500,000 chunks/s per hop). Before each
// target the fake upstream closes the keep-alive connections earlier targets' pools left idle: they
// count against its descriptors (20,000 here) while the next target is measured. Peak RSS of each
// target's processes is sampled meanwhile (each service's tree: a clustered service's primary and
// workers together), and their CPU over the load (utime + stime, per chunk the client received). A
// target with failed streams at a level is not tried at the next.
import { readFileSync } from 'node:fs';
import { STREAM_SHAPE } from '../lib/platform.mjs';
import { openCpuWindow } from '../lib/cpu.mjs';
import { log } from '../lib/log.mjs';
import { sampleDescriptors } from '../lib/descriptors.mjs';
import { sampleRss } from '../lib/rss.mjs';
import { runStreamLoad } from '../lib/stream-load.mjs';

const OPENS_PER_MS = 1;
const CHUNK_MS = 400;
/** How long a stream lasts beyond twice the ramp. */
const OVERLAP_MS = 3_000;
const MIN_CHUNKS = 16;

/**
 * The kernel's count of connections dropped because a listen queue was full (all processes: the
 * machine may be shared), from /proc/net/netstat; undefined where it cannot be read.
 */
function listenOverflows() {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('TcpExt:'));
    const names = lines[at].split(/\s+/);
    const values = lines[at + 1].split(/\s+/);
    return Number(values[names.indexOf('ListenOverflows')]);
  } catch {
    return undefined;
  }
}

/** The processes that spent a second or more, e.g. `relay 35.3 s, gateway 23.1 s, ` (else nothing). */
function cpuList(cpuMs) {
  return Object.entries(cpuMs)
    .filter(([, ms]) => ms >= 1000)
    .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s, `)
    .join('');
}

/** The ramp and the stream's shape for a level, so that every stream is open at once. */
export function streamPacing(concurrency) {
  const rampMs = Math.ceil(concurrency / OPENS_PER_MS);
  const chunks = Math.max(MIN_CHUNKS, Math.ceil((2 * rampMs + OVERLAP_MS) / CHUNK_MS));
  return { rampMs, chunkMs: CHUNK_MS, chunks };
}

export async function concurrentStreams({ targets, upstream, levels, processesOf }) {
  await upstream.setLatency(0);
  const rows = [];
  const givenUp = new Set();
  try {
    for (const concurrency of levels) {
      const { rampMs, chunkMs, chunks } = streamPacing(concurrency);
      await upstream.setOptions({ chunkMs, chunks });
      for (const target of targets) {
        if (givenUp.has(target.name)) {
          rows.push({ target: target.name, concurrency, skipped: true });
          continue;
        }
        await upstream.closeIdleConnections();
        const sampler = sampleRss(processesOf(target.name));
        // RSS is sampled above; the window is for CPU only.
        const cpuWindow = openCpuWindow({ own: processesOf(target.name) }, 0);
        const descriptorSampler = sampleDescriptors(processesOf(target.name));
        const overflowsBefore = listenOverflows();
        let r;
        try {
          r = await runStreamLoad(target, { mode: 'hold', concurrency, rampMs, timeoutMs: 300_000 });
        } catch (error) {
          r = { streams: concurrency, completed: 0, failed: concurrency, stalled: 0, error: error.message };
        }
        const rss = sampler.stop();
        const chunksReceived = r.completed * chunks;
        const { cpuMs } = cpuWindow.close(chunksReceived);
        const cpuMsTotal = Object.values(cpuMs).reduce((a, b) => a + b, 0);
        const cpuUsPerChunk = chunksReceived > 0 ? (cpuMsTotal * 1000) / chunksReceived : undefined;
        const descriptors = descriptorSampler.stop();
        const listenQueueOverflows = listenOverflows() - overflowsBefore;
        const allOpen = r.peakOpen === undefined || r.peakOpen >= concurrency;
        const held = r.failed === 0 && r.stalled === 0 && allOpen;
        if (r.failed > 0) givenUp.add(target.name);
        // The processes near a descriptor limit are the ones that matter; the bookkeeping's hold ~30.
        const busiest = Object.entries(descriptors)
          .filter(([, d]) => d.fds > 100)
          .map(([k, d]) => `${k} ${d.fds}/${d.limit ?? '?'}`)
          .join(', ');
        const failures = Object.entries(r.failures ?? {})
          .map(([reason, n]) => `${n}× ${reason}`)
          .join('; ');
        log(
          `streams ${concurrency} (${r.client ?? '?'} client, ramp ${rampMs} ms, ${chunks} chunks ${chunkMs} ms apart): ${target.name} completed ${r.completed}, failed ${r.failed}${failures ? ` (${failures})` : ''}, stalled ${r.stalled}, listen-queue overflows ${listenQueueOverflows}, peak open ${r.peakOpen ?? '?'}, TTFT p99 ${r.ttftP99?.toFixed(1)} ms, max gap ${r.maxGap?.toFixed(0)} ms, RSS ${Object.entries(
            rss,
          )
            .map(([k, v]) => `${k} ${(v / 2 ** 20).toFixed(0)} MiB`)
            .join(
              ', ',
            )}, CPU ${cpuList(cpuMs)}(${cpuUsPerChunk?.toFixed(1)} µs a chunk received, all processes)${busiest ? `, most descriptors in one process ${busiest}` : ''}`,
        );
        rows.push({
          target: target.name,
          concurrency,
          held,
          rampMs,
          chunkMs,
          chunks,
          ...r,
          listenQueueOverflows,
          rss,
          cpuMs,
          cpuUsPerChunk,
          descriptors,
        });
      }
    }
  } finally {
    await upstream.setOptions({ chunkMs: STREAM_SHAPE.chunkMs, chunks: STREAM_SHAPE.chunks });
  }
  return rows;
}
