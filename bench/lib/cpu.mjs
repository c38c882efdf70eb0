// CPU a target's processes spend over a load window, read from /proc right before and right after it:
// each named process tree's utime + stime (and that of the children it reaped, so a worker or a
// PostgreSQL backend that ended inside the window still counts), in ms per call served. Peak RSS of
// the target's own processes is sampled over the same window.
import { CLOCK_TICKS, jitCompilerCpuMs, processTable, rssBytes, treeOf } from './proc.mjs';
import { median } from './stats.mjs';

function readGroups(groups) {
  const table = processTable();
  const ticks = {};
  const processes = {};
  const rss = {};
  for (const [name, root] of Object.entries(groups)) {
    const tree = [...treeOf(table, root)];
    ticks[name] = tree.reduce((sum, pid) => sum + table.get(pid).ticks, 0);
    processes[name] = tree.length;
    rss[name] = tree.reduce((sum, pid) => sum + rssBytes(pid), 0);
  }
  return { ticks, processes, rss };
}

/**
 * Opens a window on a target's processes: `own`, the processes the target is made of (name → root
 * pid), and `infra`, the servers it uses that are reported beside it (PostgreSQL, Redis, Kafka).
 * `close(calls)` returns the CPU each spent in the window, per call served.
 */
export function openCpuWindow({ own, infra = {} }, rssIntervalMs = 250) {
  const groups = { ...own, ...infra };
  const before = readGroups(groups);
  // The infrastructure's JIT compilers (Kafka's JVM): their share of its CPU is reported apart.
  const jitBefore = Object.fromEntries(
    Object.entries(infra).map(([name, pid]) => [name, jitCompilerCpuMs(pid)]),
  );
  const peakRss = Object.fromEntries(Object.keys(own).map((name) => [name, before.rss[name]]));
  let peakRssTotal = Object.values(peakRss).reduce((a, b) => a + b, 0);
  const sample = (rss) => {
    let total = 0;
    for (const name of Object.keys(own)) {
      peakRss[name] = Math.max(peakRss[name], rss[name]);
      total += rss[name];
    }
    peakRssTotal = Math.max(peakRssTotal, total);
  };
  // 0: the caller samples RSS itself (the streams scenario); the window's end is still read.
  const timer = rssIntervalMs > 0 ? setInterval(() => sample(readGroups(own).rss), rssIntervalMs) : undefined;
  const startedAt = performance.now();
  let closed;
  return {
    /** Reads the window's end once; later calls return the same figures. */
    close(calls) {
      if (closed) return closed;
      clearInterval(timer);
      const wallMs = performance.now() - startedAt;
      const after = readGroups(groups);
      sample(after.rss);
      const cpuMs = Object.fromEntries(
        Object.keys(groups).map((name) => [
          name,
          ((after.ticks[name] - before.ticks[name]) * 1000) / CLOCK_TICKS,
        ]),
      );
      const sum = (names) => names.reduce((total, name) => total + cpuMs[name], 0);
      const perCall = (ms) => (calls > 0 ? ms / calls : Number.NaN);
      const jitPerCall = {};
      for (const [name, pid] of Object.entries(infra)) {
        const ms = jitCompilerCpuMs(pid) - jitBefore[name];
        if (ms > 0) jitPerCall[name] = perCall(ms);
      }
      const ownMs = sum(Object.keys(own));
      const infraMs = sum(Object.keys(infra));
      closed = {
        calls,
        wallMs,
        cpuMs,
        perCall: Object.fromEntries(Object.entries(cpuMs).map(([name, ms]) => [name, perCall(ms)])),
        /** Of `perCall[name]`, what a JVM's JIT compiler threads spent (only where they ran). */
        jitPerCall,
        ownPerCall: perCall(ownMs),
        infraPerCall: Object.keys(infra).length ? perCall(infraMs) : Number.NaN,
        totalPerCall: perCall(ownMs + infraMs),
        processes: after.processes,
        own: Object.keys(own),
        infra: Object.keys(infra),
        peakRss,
        peakRssTotal,
      };
      return closed;
    },
  };
}

/** Medians across rounds of each figure of several windows on the same target. */
export function medianCpu(windows) {
  const list = windows.filter(Boolean);
  if (!list.length) return undefined;
  const m = (pick) => median(list.map(pick));
  const names = Object.keys(list[0].perCall);
  return {
    calls: m((w) => w.calls),
    wallMs: m((w) => w.wallMs),
    perCall: Object.fromEntries(names.map((name) => [name, m((w) => w.perCall[name])])),
    jitPerCall: Object.fromEntries(
      [...new Set(list.flatMap((w) => Object.keys(w.jitPerCall ?? {})))].map((name) => [
        name,
        m((w) => w.jitPerCall?.[name] ?? 0),
      ]),
    ),
    ownPerCall: m((w) => w.ownPerCall),
    infraPerCall: m((w) => w.infraPerCall),
    totalPerCall: m((w) => w.totalPerCall),
    processes: list.at(-1).processes,
    own: list[0].own,
    infra: list[0].infra,
    peakRss: Object.fromEntries(
      list[0].own.map((name) => [name, Math.max(...list.map((w) => w.peakRss[name]))]),
    ),
    peakRssTotal: Math.max(...list.map((w) => w.peakRssTotal)),
  };
}
