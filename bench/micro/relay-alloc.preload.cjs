// Preloaded into the relay by relay-alloc.mjs (`--require`): each SIGUSR2 opens or closes a window, and
// closing one writes to RELAY_ALLOC_OUT what the main isolate did in it: bytes allocated (the used heap's
// growth plus what every GC in between freed, from v8.GCProfiler), the scavenges and mark-compacts with
// their pauses and what each scavenge left alive. With RELAY_ALLOC_HEAP_PROFILE set, a sampling heap
// profile of the window (objects collected by either GC included: what allocates, not what is left) is
// written there too (a .heapprofile for Chrome's DevTools or relay-alloc.mjs --top); with RELAY_ALLOC_LIVE=1
// as well, only what the window allocated and a scavenge at its end left alive; with
// RELAY_ALLOC_LIVE=survivors, what the window allocated that no scavenge collected (what lived across one).
// With RELAY_ALLOC_SNAPSHOT set, a heap snapshot is written there RELAY_ALLOC_SNAPSHOT_MS into the window
// (read it with heap-retainers.mjs).
'use strict';
const { writeFileSync } = require('node:fs');
const v8 = require('node:v8');

const out = process.env.RELAY_ALLOC_OUT;
const heapProfileOut = process.env.RELAY_ALLOC_HEAP_PROFILE;
// What is still alive at the window's end after a scavenge (needs --expose-gc), instead of what allocated.
const liveOnly = process.env.RELAY_ALLOC_LIVE === '1';
const survivorsOnly = process.env.RELAY_ALLOC_LIVE === 'survivors';
const snapshotOut = process.env.RELAY_ALLOC_SNAPSHOT;
const snapshotMs = Number(process.env.RELAY_ALLOC_SNAPSHOT_MS ?? 2000);
let window;
let session;

function post(method, params) {
  return new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

async function open() {
  const profiler = new v8.GCProfiler();
  profiler.start();
  window = { profiler, usedAtStart: v8.getHeapStatistics().used_heap_size, started: process.hrtime.bigint() };
  if (snapshotOut) setTimeout(() => v8.writeHeapSnapshot(snapshotOut), snapshotMs);
  if (heapProfileOut) {
    const { Session } = require('node:inspector');
    session ??= new Session();
    session.connect();
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: !liveOnly,
      includeObjectsCollectedByMinorGC: !liveOnly && !survivorsOnly,
    });
  }
}

async function close() {
  const { profiler, usedAtStart, started } = window;
  window = undefined;
  const usedAtEnd = v8.getHeapStatistics().used_heap_size;
  const { statistics } = profiler.stop();
  let allocated = 0;
  let previousAfter = usedAtStart;
  const gcs = [];
  for (const gc of statistics) {
    const before = gc.beforeGC.heapStatistics.usedHeapSize;
    const after = gc.afterGC.heapStatistics.usedHeapSize;
    allocated += before - previousAfter;
    previousAfter = after;
    const young = (stats) =>
      stats.heapSpaceStatistics.find((s) => s.spaceName === 'new_space')?.spaceUsedSize ?? 0;
    gcs.push({ type: gc.gcType, ms: gc.cost / 1000, freed: before - after, youngAfter: young(gc.afterGC) });
  }
  allocated += usedAtEnd - previousAfter;
  const result = { seconds: Number(process.hrtime.bigint() - started) / 1e9, allocated, gcs };
  if (heapProfileOut) {
    if (liveOnly || survivorsOnly) globalThis.gc({ type: 'minor' });
    const { profile } = await post('HeapProfiler.stopSampling');
    writeFileSync(heapProfileOut, JSON.stringify(profile));
    session.disconnect();
  }
  writeFileSync(out, JSON.stringify(result));
}

process.on('SIGUSR2', () => {
  (window === undefined ? open() : close()).catch((error) => {
    writeFileSync(out, JSON.stringify({ error: String(error) }));
  });
});
