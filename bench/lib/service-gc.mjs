// Each service's garbage collection over a load window, read by service-v8.preload.cjs (v8.GCProfiler in
// the service's main isolate) and summarised per 1,000 calls here, so that a run in V8's "bad" GC state
// (h121: every scavenge keeping and promoting every call since the previous one) shows per service:
// more young generation left after each scavenge, more promoted a scavenge, longer pauses, mark-compacts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './stats.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Tells every preloaded service to start recording its GCs (window `id`). */
export function openGcWindow(dir, id) {
  writeFileSync(join(dir, `open.${id}`), '');
}

/** Per-service figures of one window's GCs, `calls` calls served in it. */
export function summarizeGcs(gcs, calls) {
  const scavenges = gcs.filter((gc) => gc.type === 'Scavenge');
  const markCompacts = gcs.filter((gc) => gc.type === 'MarkSweepCompact');
  const promoted = scavenges.reduce((sum, gc) => sum + Math.max(0, gc.oldGained), 0);
  return {
    scavengesPer1000: (scavenges.length * 1000) / calls,
    scavengePauseMs: median(scavenges.map((gc) => gc.ms)),
    youngLeftKb: median(scavenges.map((gc) => gc.youngAfter / 1024)),
    promotedKbPerScavenge: median(scavenges.map((gc) => Math.max(0, gc.oldGained) / 1024)),
    promotedBytesPerCall: promoted / calls,
    markCompacts: markCompacts.length,
    gcMsPerCall: gcs.reduce((sum, gc) => sum + gc.ms, 0) / calls,
  };
}

/**
 * Ends window `id` and waits (up to `timeoutMs`) for each of `services` to write what it recorded;
 * a service that did not answer, or could not read its GCs, is left out (and named in `missing`).
 */
export async function closeGcWindow(dir, id, services, calls, timeoutMs = 5_000) {
  writeFileSync(join(dir, `close.${id}`), '');
  const deadline = Date.now() + timeoutMs;
  const byService = {};
  const errors = {};
  let pending = [...services];
  while (pending.length > 0 && Date.now() < deadline) {
    await sleep(50);
    for (const service of pending) {
      const file = join(dir, `${service}.${id}.json`);
      if (!existsSync(file)) continue;
      let reading;
      try {
        reading = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        continue; // being written
      }
      if (reading.error) {
        errors[service] = reading.error;
        byService[service] = undefined;
      } else byService[service] = summarizeGcs(reading.gcs, calls);
    }
    pending = pending.filter((service) => !(service in byService));
  }
  for (const service of Object.keys(errors)) delete byService[service];
  return { byService, missing: [...pending, ...Object.keys(errors).map((s) => `${s} (${errors[s]})`)] };
}

/** One line per service: `relay 4.1 scav/1k calls, 1.9 ms, 880 KB left young, 120 KB promoted, 0 MC`. */
export function formatGc(byService) {
  return Object.entries(byService)
    .map(
      ([service, g]) =>
        `${service} ${g.scavengesPer1000.toFixed(1)} scav/1k calls, pause ${g.scavengePauseMs.toFixed(2)} ms, ` +
        `left young ${g.youngLeftKb.toFixed(0)} KB, promoted ${g.promotedKbPerScavenge.toFixed(0)} KB/scav ` +
        `(${g.promotedBytesPerCall.toFixed(0)} B/call), ${g.markCompacts} MC`,
    )
    .join('; ');
}
