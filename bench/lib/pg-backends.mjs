// PostgreSQL's CPU over a window, by database, without double counts: every child of the postmaster is
// read from /proc every `intervalMs` (its own utime + stime only) and named by pg_stat_activity
// (datname; `<datname> autovacuum worker` for autovacuum; the backend type of a process that serves no
// database: checkpointer, walwriter, …).
//
// Why sampling: a backend that ends inside the window is gone from /proc by the window's end, and the
// kernel then adds its whole life's CPU to the postmaster's cutime. Summing each process's
// utime + stime + cutime + cstime (bench/lib/proc.mjs) counts such a backend twice once its parent has
// reaped it, and reading the surviving backends alone misses it. Here a child is counted from its
// first reading in the window (from 0 if it started inside it) to its last; what it spent after its
// last reading is the growth of the postmaster's cutime less the last readings of the children that
// ended, given to their database when they all served the same one, else reported as `unattributed`.
// `serverMs` is then exactly the cluster's CPU over the window: the postmaster's own, its live
// children's, and its reaped children's.
import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { CLOCK_TICKS } from './proc.mjs';

/** utime, stime, cutime, cstime and start time (ticks) of a process, or undefined once it is gone. */
export function readTimes(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields resume after the command's last ')' (field 3 on): utime is field 14, starttime field 22.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(f[1]),
      own: Number(f[11]) + Number(f[12]),
      children: Number(f[13]) + Number(f[14]),
      start: f[19],
    };
  } catch {
    return undefined;
  }
}

/** The postmaster's children now: /proc/<pid>/task/<pid>/children, or a scan of /proc without it. */
export function childPids(postmaster) {
  try {
    return readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    const pids = [];
    for (const name of readdirSync('/proc'))
      if (/^\d+$/.test(name) && readTimes(name)?.ppid === postmaster) pids.push(Number(name));
    return pids;
  }
}

/** What the process title says a child serves: `postgres: <user> <database> <client> <state>`, or its role. */
function labelFromTitle(pid) {
  try {
    const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    const worker = /^postgres: autovacuum worker (\S+)/.exec(title);
    if (worker) return `${worker[1]} ${AUTOVACUUM}`;
    const backend =
      /^postgres: \S+ (\S+) \S+\(\d+\)/.exec(title) ?? /^postgres: \S+ (\S+) \[local\]/.exec(title);
    if (backend) return backend[1];
    return title.replace(/^postgres: /, '') || undefined;
  } catch {
    return undefined;
  }
}

/** The suffix of an autovacuum worker's label: `<database> autovacuum worker`. */
export const AUTOVACUUM = 'autovacuum worker';

/**
 * CPU ms of one database from `byDatabase`: `total` over every process that served it (client
 * backends, their parallel workers, autovacuum), `autovacuum` the part of it autovacuum took.
 */
export function databaseCpuMs(byDatabase, database) {
  let total = 0;
  for (const [label, cpuMs] of Object.entries(byDatabase))
    if (label === database || label.startsWith(`${database} `)) total += cpuMs;
  return { total, autovacuum: byDatabase[`${database} ${AUTOVACUUM}`] ?? 0 };
}

const ms = (ticks) => (ticks * 1000) / CLOCK_TICKS;

/**
 * Starts sampling the PostgreSQL server `databaseUrl` points at (it must run on this machine) and
 * returns `{ restart(), stop() }`: `stop()` ends the window and resolves to `{ serverMs, byDatabase,
 * unattributedMs, postmasterMs, excludedMs, seconds }` (CPU ms; `byDatabase` keyed by datname or backend
 * type). `restart()` begins the window again from now. The sampler's own connection, and the backends of
 * `excludePids` (the bench's own clients) with their parallel workers, are left out of every figure and
 * reported as `excludedMs`.
 */
export async function startPostgresCpu({ databaseUrl, intervalMs = 100, excludePids = [] }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const {
    rows: [{ pid: ownPid }],
  } = await client.query('select pg_backend_pid() as pid');
  const postmaster = readTimes(ownPid)?.ppid;
  if (!postmaster) {
    await client.end();
    throw new Error('PostgreSQL does not run on this machine: its backends are not in /proc');
  }
  const excluded = new Set([ownPid, ...excludePids]);
  /** pid:start → label, for every child named so far. */
  const labels = new Map();

  async function name(keys) {
    const pids = keys.map((key) => Number(key.split(':')[0]));
    const { rows } = await client.query(
      `select pid, leader_pid, case when backend_type = 'client backend' or datname is null
         then coalesce(datname, backend_type) else datname || ' ' || backend_type end as label
       from pg_stat_activity where pid = any($1)`,
      [pids],
    );
    const known = new Map(rows.map((row) => [row.pid, row.label]));
    // A parallel worker of an excluded backend (the bench's own count) is left out with it.
    for (const row of rows)
      if (row.leader_pid !== null && excluded.has(row.leader_pid)) excluded.add(row.pid);
    for (const [i, key] of keys.entries()) {
      const label = known.get(pids[i]) ?? labelFromTitle(pids[i]);
      if (label) labels.set(key, label);
    }
  }

  /** One reading: the postmaster's own and reaped children's ticks, and each live child's own ticks. */
  function read() {
    const master = readTimes(postmaster) ?? { own: 0, children: 0 };
    const children = new Map();
    for (const pid of childPids(postmaster)) {
      const times = readTimes(pid);
      if (times) children.set(`${pid}:${times.start}`, { pid, own: times.own });
    }
    return { master, children };
  }

  let window;
  let timer;
  let sampling = Promise.resolve();

  function begin() {
    const first = read();
    window = {
      startedAt: performance.now(),
      master: first.master,
      last: first,
      /** key → { from, last } ticks of each child seen in the window. */
      seen: new Map([...first.children].map(([key, c]) => [key, { pid: c.pid, from: c.own, last: c.own }])),
      /** label → ticks of ended children's unseen tails given to it. */
      tails: new Map(),
      unattributed: 0,
    };
  }

  async function sample() {
    const now = read();
    const unnamed = [...now.children.keys()].filter((key) => !labels.has(key));
    if (unnamed.length) await name(unnamed).catch(() => undefined);
    const ended = [...window.last.children.keys()].filter((key) => !now.children.has(key));
    for (const [key, c] of now.children) {
      const entry = window.seen.get(key);
      if (entry) entry.last = c.own;
      // Started since the window began: its whole life is inside it.
      else window.seen.set(key, { pid: c.pid, from: 0, last: c.own });
    }
    // Children reaped since the last reading handed their whole life to the postmaster's cutime.
    const tail =
      now.master.children -
      window.last.master.children -
      ended.reduce((sum, key) => sum + window.seen.get(key).last, 0);
    if (tail > 0) {
      const endedLabels = new Set(ended.map((key) => labels.get(key) ?? '?'));
      const label = endedLabels.size === 1 ? [...endedLabels][0] : undefined;
      if (label && label !== '?') window.tails.set(label, (window.tails.get(label) ?? 0) + tail);
      else window.unattributed += tail;
    }
    window.last = now;
  }

  function schedule() {
    timer = setTimeout(() => {
      sampling = sample().finally(() => {
        if (timer) schedule();
      });
    }, intervalMs);
  }

  async function finish() {
    clearTimeout(timer);
    timer = undefined;
    try {
      await sampling;
      await sample();
    } finally {
      await client.end();
    }
    const byDatabase = {};
    let excludedTicks = 0;
    let childTicks = 0;
    for (const [key, { pid, from, last }] of window.seen) {
      const ticks = last - from;
      if (excluded.has(pid)) {
        excludedTicks += ticks;
        continue;
      }
      const label = labels.get(key) ?? 'unnamed';
      byDatabase[label] = (byDatabase[label] ?? 0) + ms(ticks);
      childTicks += ticks;
    }
    for (const [label, ticks] of window.tails) byDatabase[label] = (byDatabase[label] ?? 0) + ms(ticks);
    const tailTicks = [...window.tails.values()].reduce((a, b) => a + b, 0) + window.unattributed;
    const postmasterTicks = window.last.master.own - window.master.own;
    return {
      serverMs: ms(postmasterTicks + childTicks + tailTicks),
      byDatabase,
      unattributedMs: ms(window.unattributed),
      postmasterMs: ms(postmasterTicks),
      excludedMs: ms(excludedTicks),
      seconds: (performance.now() - window.startedAt) / 1000,
    };
  }

  await name([...read().children.keys()]);
  begin();
  schedule();
  let stopping;
  return {
    async restart() {
      await sampling;
      begin();
    },
    /** Ends the window (once; later calls get the same figures) and closes the sampler's connection. */
    stop: () => (stopping ??= finish()),
  };
}
