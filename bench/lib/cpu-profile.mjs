// Self time per function and per package from V8 .cpuprofile files (node --cpu-prof).
import { readFileSync } from 'node:fs';

function packageOf(url) {
  if (!url) return '(V8: program, GC, native)';
  if (url.startsWith('node:')) return 'node core';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  const own = /\/(apps|libs)\/([^/]+)\//.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

function shortUrl(url) {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/(apps|libs)\//, '$1/');
}

function frameName({ functionName, url, lineNumber }) {
  return url === ''
    ? functionName || '(anonymous)'
    : `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`;
}

/**
 * { totalMs, functions: [{name, selfMs, share}], packages: [{name, selfMs, share}] }, and with
 * `inclusive: n` also `inclusiveFunctions`: the n functions with the most time in them or their callees.
 */
export function summarizeCpuProfile(file, { top = 15, inclusive = 0 } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  // The profiler's own start-up call (from the preload) is not the service's work.
  const excluded = new Set();
  const exclude = (node) => {
    excluded.add(node.id);
    for (const child of node.children ?? []) exclude(byId.get(child));
  };
  for (const node of profile.nodes) if (node.callFrame.url.includes('cpu-profiler.preload')) exclude(node);
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + delta);
  }
  const functions = new Map();
  const packages = new Map();
  const inclusiveTimes = new Map();
  let total = 0;
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id);
    // Shares are of busy time: waiting for I/O is not a cost to fix.
    if (callFrame.functionName === '(idle)' || excluded.has(id)) continue;
    const name = frameName(callFrame);
    functions.set(name, (functions.get(name) ?? 0) + micros);
    if (inclusive > 0) {
      const seen = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const frame = frameName(byId.get(at).callFrame);
        if (seen.has(frame)) continue;
        seen.add(frame);
        inclusiveTimes.set(frame, (inclusiveTimes.get(frame) ?? 0) + micros);
      }
    }
    const pkg = packageOf(callFrame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
    total += micros;
  }
  const ranked = (map, n = top) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => ({ name, selfMs: micros / 1000, share: micros / total }));
  const summary = { totalMs: total / 1000, functions: ranked(functions), packages: ranked(packages) };
  return inclusive > 0 ? { ...summary, inclusiveFunctions: ranked(inclusiveTimes, inclusive) } : summary;
}
