// Preloaded into relay by bench/micro/relay-stream-memory.mjs (node --expose-gc --require …): answers
// the script's questions over the IPC channel it was started with. Nothing else in relay changes.
//   { type: 'memory' }           → process.memoryUsage() as found (`beforeGc`), after two full GCs
//                                  (`memory`), and after glibc's malloc_trim(0) too (`afterTrim`, where
//                                  koffi and glibc are there), and live handles by type
//   { type: 'snapshot', file }   → a V8 heap snapshot written to `file` (v8.writeHeapSnapshot)
//   { type: 'sampling-start' }, { type: 'sampling-stop', file } → V8's sampling heap profile of what
//                                  outlived young-generation GCs in between, written to `file`
'use strict';
const { writeHeapSnapshot } = require('node:v8');

/** glibc's malloc_trim, called synchronously: what the C heap holds free goes back to the system. */
function loadMallocTrim() {
  if (process.platform !== 'linux') return undefined;
  try {
    return require('koffi').load('libc.so.6').func('int malloc_trim(size_t pad)');
  } catch {
    return undefined;
  }
}

function openInspector() {
  const { Session } = require('node:inspector');
  const session = new Session();
  session.connect();
  return session;
}

if (typeof process.send === 'function') {
  let mallocTrim;
  let inspector;
  process.on('message', (message) => {
    if (message?.type === 'memory') {
      const beforeGc = process.memoryUsage();
      globalThis.gc?.();
      globalThis.gc?.();
      const resources = {};
      for (const name of process.getActiveResourcesInfo()) resources[name] = (resources[name] ?? 0) + 1;
      const memory = process.memoryUsage();
      mallocTrim ??= loadMallocTrim() ?? null;
      let afterTrim;
      if (mallocTrim) {
        mallocTrim(0);
        afterTrim = process.memoryUsage();
      }
      process.send({ type: 'memory', id: message.id, beforeGc, memory, afterTrim, resources });
    } else if (message?.type === 'sampling-start') {
      // Allocations sampled that outlive young-generation GCs: what is promoted (and then either lives
      // or dies in a full GC), by the function that allocated it.
      inspector ??= openInspector();
      inspector.post(
        'HeapProfiler.startSampling',
        {
          samplingInterval: 4096,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: false,
        },
        (error) => process.send({ type: 'sampling-start', id: message.id, error: error?.message }),
      );
    } else if (message?.type === 'sampling-stop') {
      inspector.post('HeapProfiler.stopSampling', (error, result) => {
        if (!error) require('node:fs').writeFileSync(message.file, JSON.stringify(result.profile));
        process.send({ type: 'sampling-stop', id: message.id, error: error?.message });
      });
    } else if (message?.type === 'snapshot') {
      const file = writeHeapSnapshot(message.file);
      process.send({ type: 'snapshot', id: message.id, file });
    }
  });
  // The channel alone must not keep relay alive once it is told to stop.
  process.channel?.unref();
}
