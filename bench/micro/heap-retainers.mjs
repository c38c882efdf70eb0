#!/usr/bin/env node
// What a V8 heap snapshot (.heapsnapshot, e.g. relay-alloc.mjs --snapshot-at-ms) holds of some
// constructors, and why (h121, issue 17): how many objects of each named constructor, and for up to
// --paths of them the shortest retainer path from the GC roots (weak edges skipped), read from the
// snapshot's JSON without DevTools. A snapshot holds only what is reachable (V8 collects the rest
// before writing it): an object kept alive across scavenges only by dead old-generation objects
// (the remembered set, h121) is not in it at all.
//
//   node bench/micro/heap-retainers.mjs FILE.heapsnapshot [--names ServerResponse,IncomingMessage] [--paths 3]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    names: { type: 'string', default: 'ServerResponse,IncomingMessage' },
    paths: { type: 'string', default: '3' },
  },
});
if (positionals.length !== 1) {
  console.error('node bench/micro/heap-retainers.mjs FILE.heapsnapshot [--names A,B] [--paths 3]');
  process.exit(2);
}
const snapshot = JSON.parse(readFileSync(positionals[0], 'utf8'));
const {
  node_fields: nodeFields,
  edge_fields: edgeFields,
  node_types: nodeTypes,
  edge_types: edgeTypes,
} = snapshot.snapshot.meta;
const { nodes, edges, strings } = snapshot;
const NODE = nodeFields.length;
const EDGE = edgeFields.length;
const field = (name) => nodeFields.indexOf(name);
const [nType, nName, nEdges, nSize] = ['type', 'name', 'edge_count', 'self_size'].map(field);
const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => edgeFields.indexOf(f));
const nodeTypeNames = nodeTypes[nType];
const edgeTypeNames = edgeTypes[eType];
const nodeCount = nodes.length / NODE;

const firstEdge = new Uint32Array(nodeCount + 1);
for (let i = 0, e = 0; i < nodeCount; i++) {
  firstEdge[i] = e;
  e += nodes[i * NODE + nEdges] * EDGE;
}
firstEdge[nodeCount] = edges.length;

const nameOf = (i) => strings[nodes[i * NODE + nName]];
const label = (i) => `${nodeTypeNames[nodes[i * NODE + nType]]} ${nameOf(i).slice(0, 60)}`;
const edgeLabel = (e) => {
  const type = edgeTypeNames[edges[e + eType]];
  const raw = edges[e + eName];
  return type === 'element' || type === 'hidden' ? `[${raw}]` : String(strings[raw]).slice(0, 40);
};

// Shortest paths from the synthetic root (node 0), by breadth, weak edges left out.
const parentEdge = new Int32Array(nodeCount).fill(-1);
const parent = new Int32Array(nodeCount).fill(-1);
const seen = new Uint8Array(nodeCount);
const queue = new Uint32Array(nodeCount);
let head = 0;
let tail = 0;
queue[tail++] = 0;
seen[0] = 1;
while (head < tail) {
  const from = queue[head++];
  for (let e = firstEdge[from]; e < firstEdge[from + 1]; e += EDGE) {
    if (edgeTypeNames[edges[e + eType]] === 'weak') continue;
    const to = edges[e + eTo] / NODE;
    if (seen[to]) continue;
    seen[to] = 1;
    parent[to] = from;
    parentEdge[to] = e;
    queue[tail++] = to;
  }
}

const wanted = new Set(args.names.split(','));
const found = new Map([...wanted].map((name) => [name, []]));
for (let i = 0; i < nodeCount; i++) {
  if (nodeTypeNames[nodes[i * NODE + nType]] !== 'object') continue;
  const name = nameOf(i);
  if (wanted.has(name)) found.get(name).push(i);
}
let total = 0;
for (let i = 0; i < nodeCount; i++) total += nodes[i * NODE + nSize];
console.log(`${positionals[0]}: ${nodeCount} nodes, ${(total / 1048576).toFixed(1)} MB`);
for (const [name, ids] of found) {
  console.log(`\n${name}: ${ids.length}`);
  for (const id of ids.slice(0, Number(args.paths))) {
    const steps = [];
    for (let at = id; at > 0 && parent[at] >= 0; at = parent[at])
      steps.push(`${label(at)}  <-[${edgeLabel(parentEdge[at])}]-`);
    console.log(seen[id] ? `  ${steps.reverse().join('\n    ')}` : '  (unreachable but for weak edges)');
  }
}
