// Resident memory of a process and its descendants (a clustered service's workers), from /proc.
import { processTable, rssBytes, treeOf } from './proc.mjs';

/** Total RSS (bytes) of each named process tree, read at one moment. */
export function treeRss(rootPids) {
  const table = processTable();
  const out = {};
  for (const [name, root] of Object.entries(rootPids)) {
    out[name] = [...treeOf(table, root)].reduce((sum, pid) => sum + rssBytes(pid), 0);
  }
  return out;
}

/** Samples the trees every `intervalMs` until stopped; returns the peak of each. */
export function sampleRss(rootPids, intervalMs = 250) {
  const peak = Object.fromEntries(Object.keys(rootPids).map((k) => [k, 0]));
  const take = () => {
    for (const [name, bytes] of Object.entries(treeRss(rootPids))) peak[name] = Math.max(peak[name], bytes);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return peak;
    },
  };
}
