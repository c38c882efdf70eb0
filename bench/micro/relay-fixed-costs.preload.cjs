// Preloaded into the relay by relay-fixed-costs.mjs (`--require`): each SIGUSR2 opens or closes a window,
// and closing one writes to RELAY_FIXED_OUT what the main thread started in it — async resources by type
// (async_hooks init: Timeout, Immediate, TickObject, PROMISE, WRITEWRAP, ...), the code that created each
// Timeout, Immediate and TickObject (the first frame outside node's internals and this file, from a
// sample of up to 2,000 per type), Timeout#refresh calls, and the garbage collections by kind.
'use strict';
const { existsSync, writeFileSync } = require('node:fs');
const asyncHooks = require('node:async_hooks');
const { PerformanceObserver, constants } = require('node:perf_hooks');

const out = process.env.RELAY_FIXED_OUT;
const SOURCED = new Set(['Timeout', 'Immediate', 'TickObject']);
const SAMPLE = 2000;
let window;

function firstOwnFrame() {
  const saved = Error.stackTraceLimit;
  Error.stackTraceLimit = 16;
  const stack = new Error().stack.split('\n').slice(2);
  Error.stackTraceLimit = saved;
  for (const line of stack) {
    if (line.includes('node:') || line.includes('relay-fixed-costs.preload')) continue;
    return line
      .trim()
      .replace(/^at /, '')
      .replace(/\(.*node_modules\//, '(')
      .replace(/\(.*\/(apps|libs)\//, '($1/');
  }
  // Only node's own code: its first frames past the hook's and the scheduling function's.
  return stack
    .map((l) => l.trim().replace(/^at /, ''))
    .filter(
      (l) => !/preload|async_hooks|internal\/timers|task_queues:132|^setImmediate|^process\.nextTick/.test(l),
    )
    .slice(0, 3)
    .join(' < ');
}

const hook = asyncHooks.createHook({
  init(_id, type) {
    if (!window) return;
    window.types[type] = (window.types[type] ?? 0) + 1;
    if (SOURCED.has(type) && (window.sampled[type] ?? 0) < SAMPLE) {
      window.sampled[type] = (window.sampled[type] ?? 0) + 1;
      const site = `${type} ${firstOwnFrame()}`;
      window.sites[site] = (window.sites[site] ?? 0) + 1;
    }
  },
});

const probe = setTimeout(() => undefined, 1);
const TimeoutPrototype = Object.getPrototypeOf(probe);
clearTimeout(probe);
const refresh = TimeoutPrototype.refresh;
TimeoutPrototype.refresh = function countedRefresh() {
  if (window?.census) window.refreshes++;
  return refresh.call(this);
};

const gcKinds = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak-callbacks',
};
const gcObserver = new PerformanceObserver((list) => {
  if (!window) return;
  for (const entry of list.getEntries()) {
    const kind = gcKinds[entry.detail?.kind ?? entry.kind] ?? 'other';
    window.gcs[kind] = (window.gcs[kind] ?? 0) + 1;
    window.gcMs += entry.duration;
  }
});

process.on('SIGUSR2', () => {
  if (!window) {
    // A census window (async_hooks on, promise hooks included) costs the relay CPU of its own: the
    // driver measures CPU in a plain window and counts in a census window of the same calls.
    const census = existsSync(`${out}.census`);
    window = { census, types: {}, sampled: {}, sites: {}, refreshes: 0, gcs: {}, gcMs: 0 };
    if (census) hook.enable();
    // Marks the window in the relay's log (for flags that trace there, e.g. --trace-deopt).
    process.stdout.write(`relay-fixed-costs: window open${census ? ' (census)' : ''}\n`);
    gcObserver.observe({ entryTypes: ['gc'] });
    return;
  }
  const closed = window;
  hook.disable();
  process.stdout.write('relay-fixed-costs: window closed\n');
  // The observer's last entries arrive asynchronously: give them a turn before writing.
  setImmediate(() => {
    gcObserver.disconnect();
    window = undefined;
    closed.activeResources = process.getActiveResourcesInfo();
    writeFileSync(out, JSON.stringify(closed));
  });
});
