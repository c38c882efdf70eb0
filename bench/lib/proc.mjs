// What /proc says about the processes of a target: the process tree under a pid (a clustered service's
// workers, PostgreSQL's backends), each process's CPU time and resident memory, and which process
// listens on a TCP port (the infrastructure's servers, found from the URLs the run was given).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second, the unit of /proc/<pid>/stat's times. */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * Parent and CPU ticks of one process: utime + stime, plus cutime + cstime (children it has waited
 * for), so that a worker or backend that ended inside a window still counts, in its parent.
 */
function readStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields resume after the last ')' (field 3 on).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined; // the process ended while the table was read
  }
}

/**
 * CPU ms so far of a JVM's JIT compiler threads (`C1 CompilerThre`, `C2 CompilerThre` in
 * /proc/<pid>/task/<tid>/stat); 0 for a process that has none. A fresh Kafka broker compiles for
 * minutes, about as much CPU as it spends on requests at first (bench/ANALYSIS.md, H46), so a load
 * window early in its life measures its start-up as much as the calls. A compiler thread that ended
 * takes its time with it: a lower bound.
 */
export function jitCompilerCpuMs(pid) {
  return threadsOf(pid)
    .filter(({ name }) => /^C[12] CompilerThre/.test(name))
    .reduce((sum, { cpuMs }) => sum + cpuMs, 0);
}

/**
 * Each thread of a process (`'self'` for this one) now: its id, name and CPU ms so far (utime +
 * stime, from /proc/<pid>/task/<tid>/stat); none for a process that is gone. A thread that ends
 * between the listing and its read is left out. With `switches`, also its voluntary (it slept and was
 * woken) and involuntary (preempted) context switches so far, from the thread's status file.
 */
export function threadsOf(pid, { switches = false } = {}) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const threads = [];
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const thread = { tid, name, cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS };
      if (switches) {
        const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
        thread.voluntary = Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
        thread.involuntary = Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      }
      threads.push(thread);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/** Every process on the machine: pid → { ppid, ticks }, read at one moment. */
export function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(name);
    if (stat) table.set(Number(name), stat);
  }
  return table;
}

/** `root` and its descendants among the table's processes. */
export function treeOf(table, root) {
  const tree = new Set(table.has(root) ? [root] : []);
  let grew = tree.size > 0;
  while (grew) {
    grew = false;
    for (const [pid, { ppid }] of table) {
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return tree;
}

export function rssBytes(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Open descriptors of a process (0 once it is gone). */
export function openDescriptors(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** A process's open-file limit (its soft RLIMIT_NOFILE; `self` for this one), or undefined. */
export function openFileLimit(pid) {
  try {
    const limit = /Max open files\s+(\d+)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1];
    return limit === undefined ? undefined : Number(limit);
  } catch {
    return undefined;
  }
}

/** Socket inodes listening on `port` (IPv4 and IPv6). */
function listeningInodes(port) {
  const inodes = new Set();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[1] local address:port (hex), f[3] state (0A = LISTEN), f[9] inode
      if (f.length > 9 && f[3] === '0A' && parseInt(f[1].split(':')[1], 16) === port) inodes.add(f[9]);
    }
  }
  return inodes;
}

/** The process listening on a TCP port on this machine, or undefined (another network namespace, no access). */
export function listeningPid(port) {
  const inodes = listeningInodes(port);
  if (!inodes.size) return undefined;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let fds;
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${name}/fd/${fd}`));
        if (m && inodes.has(m[1])) return Number(name);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/**
 * PostgreSQL's postmaster, Redis and the Kafka broker, found as the processes listening on the ports
 * the run's URLs name (the same whether scripts/infra.sh started them for the run or --infra env
 * points at running ones); reported beside distributed Tollgate's own processes. `env` holds
 * DATABASE_URL, REDIS_URL and KAFKA_BROKERS; `log` is told of each one not found on this machine.
 */
export function infrastructurePids(env, log) {
  const portOf = (address, defaultPort) => {
    const url = new URL(address.includes('://') ? address : `tcp://${address}`);
    const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    return local ? Number(url.port || defaultPort) : undefined;
  };
  const pids = {};
  for (const [name, address, defaultPort] of [
    ['postgres', env.DATABASE_URL, 5432],
    ['redis', env.REDIS_URL, 6379],
    ['kafka', env.KAFKA_BROKERS.split(',')[0], 9092],
  ]) {
    const port = portOf(address, defaultPort);
    const pid = port ? listeningPid(port) : undefined;
    if (pid) pids[name] = pid;
    else log(`${name}: no local process listens on ${address}; its CPU is not reported`);
  }
  return pids;
}
