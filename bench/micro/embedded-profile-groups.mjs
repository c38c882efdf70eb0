// Self time of a V8 .cpuprofile grouped by the component of embedded mode it belongs to (issue 17,
// brief H39): PGlite's WASM and JS, pglite-socket, pg/knex/MikroORM, the services' own code, the bus
// and key-value bridges, GC, socket I/O and streams, message ports, ... A native frame (no URL: a
// write, a Buffer copy) counts for the nearest caller that has one. Used by embedded-memory.mjs
// --profile-load; also runnable on a profile file:
//
//   node bench/micro/embedded-profile-groups.mjs <file.cpuprofile> [calls]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DATABASE_CLIENT =
  /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+|knex|tarn|@mikro-orm\/[^/]+)\//;

const NODE_CORE = new Set(['socket I/O, streams', 'message ports', 'timers, ticks']);

function groupOfUrl(url) {
  // PGlite's in the worker; on the main thread, undici's HTTP parser (llhttp).
  if (url.startsWith('wasm://')) return 'WASM';
  if (url.includes('@electric-sql/pglite-socket')) return 'pglite-socket';
  if (url.includes('@electric-sql/pglite')) return 'PGlite JS';
  if (DATABASE_CLIENT.test(url)) return 'pg/knex/MikroORM';
  if (/\/libs\/events\/(src|dist)\/(.*\/)?bridge\//.test(url)) return 'bus bridge';
  if (/\/libs\/kv\/(src|dist)\/(.*\/)?bridge\//.test(url)) return 'kv bridge';
  if (/\/libs\/events\/(src|dist)\/(.*\/)?in-process\//.test(url)) return 'in-process bus';
  const own = /\/(apps|libs|tools)\/([^/]+)\//.exec(url);
  if (own) return own[1] === 'apps' ? `service: ${own[2]}` : `${own[1]}/${own[2]}`;
  if (/^node:(net|stream|internal\/(net|stream_base_commons|streams\/))/.test(url))
    return 'socket I/O, streams';
  if (/^node:(worker_threads|internal\/(worker|per_context\/messageport))/.test(url)) return 'message ports';
  if (/^node:internal\/(timers|process\/task_queues)/.test(url)) return 'timers, ticks';
  if (url.startsWith('node:')) return `node: ${url.slice(5).replace(/^internal\//, '')}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? `package: ${pkg[1]}` : url;
}

/** { totalMsPerCall, groups: { name: ms per call } } (or ms when calls is not given), largest first. */
export function groupCpuProfile(file, { calls } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const groupOf = new Map();
  const resolveGroup = (id) => {
    if (groupOf.has(id)) return groupOf.get(id);
    const { functionName, url } = byId.get(id).callFrame;
    let group;
    const preloadCaller =
      parent.has(id) && resolveGroup(parent.get(id)) === null && functionName !== '(root)';
    if (functionName === '(idle)' || preloadCaller) group = null;
    else if (functionName === '(garbage collector)') group = 'GC';
    else if (functionName === '(program)') group = 'V8/native (program)';
    // The bench's preloads (their polling, the profiler's own calls) are not the platform's work.
    else if (
      url.includes('profile-load.cjs') ||
      url.includes('threads.cjs') ||
      functionName.startsWith('Profiler')
    )
      group = null;
    else if (url !== '') {
      group = groupOfUrl(url);
      // Node's own code counts for whoever called it: "pg/knex/MikroORM > socket I/O, streams".
      if (NODE_CORE.has(group) || group.startsWith('node: ')) group = `${ownerOf(id)} > ${group}`;
    } else group = parent.has(id) ? resolveGroup(parent.get(id)) : 'native, no caller';
    groupOf.set(id, group);
    return group;
  };
  /** The nearest caller outside Node's own code, or "event loop" when there is none. */
  const ownerOf = (id) => {
    for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
      const { url } = byId.get(at).callFrame;
      if (url === '') continue;
      const group = groupOfUrl(url);
      if (!NODE_CORE.has(group) && !group.startsWith('node: ')) return group;
    }
    return 'event loop';
  };
  const micros = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const group = resolveGroup(profile.samples[i]);
    if (group === null) continue;
    const delta = profile.timeDeltas[i] ?? 0;
    micros.set(group, (micros.get(group) ?? 0) + delta);
    total += delta;
  }
  // On a busy machine a sample's time runs on while its thread waits for a core: the shares are
  // what to trust, times in ms the thread's CPU from /proc times the share.
  const per = (us) => Number((us / 1000 / (calls ?? 1)).toFixed(4));
  const ranked = [...micros].sort((a, b) => b[1] - a[1]);
  return {
    [calls ? 'totalMsPerCall' : 'totalMs']: per(total),
    shares: Object.fromEntries(ranked.map(([name, us]) => [name, Number((us / total).toFixed(4))])),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, calls] = process.argv.slice(2);
  console.log(JSON.stringify(groupCpuProfile(file, { calls: calls ? Number(calls) : undefined }), null, 1));
}
