// Preloaded into every service by full-platform-cpu.mjs (NODE_OPTIONS=--require …) when it is given
// --service-v8-flags or --gc; each service (SERVICE_NAME) picks what concerns it:
// - BENCH_SERVICE_V8_FLAGS (JSON, service → V8 flags): given to v8.setFlagsFromString before the
//   service's own code loads, as relay's keepCallStateYoung does first thing in composeUpstream (flags
//   such as --no-allocation-site-pretenuring are refused in NODE_OPTIONS, and a decision V8 took before
//   the flag is set stays).
// - BENCH_GC_DIR: the bench writes open.<n> and close.<n> there (seen through inotify, so nothing runs
//   between windows); at close.<n> this process writes <service>.<n>.json, its main isolate's GCs in the
//   window from v8.GCProfiler: kind, pause, the young generation left after it and what the old
//   generation gained (for a scavenge: what it promoted). Files, not signals: Nest's shutdown hooks
//   treat SIGUSR2 and most others as "stop".
'use strict';
const { watch, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const v8 = require('node:v8');

const service = process.env.SERVICE_NAME;
const flags = JSON.parse(process.env.BENCH_SERVICE_V8_FLAGS || '{}')[service];
if (flags) v8.setFlagsFromString(flags);

const gcDir = process.env.BENCH_GC_DIR;
const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/** Used bytes of the young generation and of the rest of the heap (old, code, large objects). */
function generations({ heapSpaceStatistics }) {
  let young = 0;
  let old = 0;
  for (const space of heapSpaceStatistics) {
    if (YOUNG_SPACES.has(space.spaceName)) young += space.spaceUsedSize;
    else old += space.spaceUsedSize;
  }
  return { young, old };
}

if (gcDir && service) {
  let profiler;
  let windowId;
  // A file's creation and its write may each be an event: a window opens and closes once.
  const watcher = watch(gcDir, (_event, name) => {
    const match = /^(open|close)\.(\d+)$/.exec(name ?? '');
    if (!match) return;
    if (match[1] === 'open' && !profiler) {
      profiler = new v8.GCProfiler();
      profiler.start();
      windowId = match[2];
    } else if (match[1] === 'close' && profiler && match[2] === windowId) {
      const file = join(gcDir, `${service}.${match[2]}.json`);
      // A reading that fails is reported, never thrown: this runs inside the service being measured.
      try {
        const { statistics } = profiler.stop();
        const gcs = statistics.map((gc) => {
          const before = generations(gc.beforeGC);
          const after = generations(gc.afterGC);
          return {
            type: gc.gcType,
            ms: gc.cost / 1000,
            youngAfter: after.young,
            oldGained: after.old - before.old,
          };
        });
        writeFileSync(file, JSON.stringify({ pid: process.pid, gcs }));
      } catch (error) {
        writeFileSync(file, JSON.stringify({ pid: process.pid, error: String(error) }));
      }
      profiler = undefined;
    }
  });
  watcher.unref();
}
