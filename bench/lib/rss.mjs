// Resident memory of a process and its descendants (a clustered service's workers), from /proc.
import { readdirSync, readFileSync } from 'node:fs';

function processTable() {
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields resume after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // The process ended while the table was read.
    }
  }
  return parents;
}

function rssBytes(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Total RSS (bytes) of each named process tree, read at one moment. */
export function treeRss(rootPids) {
  const parents = processTable();
  const out = {};
  for (const [name, root] of Object.entries(rootPids)) {
    const tree = new Set([root]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, ppid] of parents) {
        if (tree.has(ppid) && !tree.has(pid)) {
          tree.add(pid);
          grew = true;
        }
      }
    }
    out[name] = [...tree].reduce((sum, pid) => sum + rssBytes(pid), 0);
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
