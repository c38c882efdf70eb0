// Open descriptors of each process of a target, from /proc: the limit is per process, and a proxy holds
// a client socket and a next-hop socket per stream, so a process at its limit refuses streams (accepts
// closed at once, next-hop connects failing with EMFILE).
import { openDescriptors, openFileLimit, processTable, treeOf } from './proc.mjs';

/**
 * Samples the named process trees every `intervalMs` until stopped; returns, per tree, the most any ONE
 * process held and that process's limit.
 */
export function sampleDescriptors(rootPids, intervalMs = 250) {
  const peak = Object.fromEntries(Object.keys(rootPids).map((k) => [k, { fds: 0, limit: undefined }]));
  const take = () => {
    const table = processTable();
    for (const [name, root] of Object.entries(rootPids))
      for (const pid of treeOf(table, root)) {
        const fds = openDescriptors(pid);
        if (fds > peak[name].fds) peak[name] = { fds, limit: openFileLimit(pid) };
      }
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
