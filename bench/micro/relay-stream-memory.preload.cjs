// Preloaded into relay by bench/micro/relay-stream-memory.mjs (node --expose-gc --require …): answers
// the script's questions over the IPC channel it was started with. Nothing else in relay changes.
//   { type: 'memory' }           → process.memoryUsage() after two full GCs, and live handles by type
//   { type: 'snapshot', file }   → a V8 heap snapshot written to `file` (v8.writeHeapSnapshot)
'use strict';
const { writeHeapSnapshot } = require('node:v8');

if (typeof process.send === 'function') {
  process.on('message', (message) => {
    if (message?.type === 'memory') {
      globalThis.gc?.();
      globalThis.gc?.();
      const resources = {};
      for (const name of process.getActiveResourcesInfo()) resources[name] = (resources[name] ?? 0) + 1;
      process.send({ type: 'memory', id: message.id, memory: process.memoryUsage(), resources });
    } else if (message?.type === 'snapshot') {
      const file = writeHeapSnapshot(message.file);
      process.send({ type: 'snapshot', id: message.id, file });
    }
  });
  // The channel alone must not keep relay alive once it is told to stop.
  process.channel?.unref();
}
