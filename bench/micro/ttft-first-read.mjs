#!/usr/bin/env node
// What relay's JS spends on a stream's first read, cold and warm, per checkout (issue 17, H55, h113): one
// process, each checkout's built relay modules (node scripts/build.mjs there). "first read": a new SSE
// decoder, OpenAI transformer and OpenAI dialect stream fed the fake upstream's first read (the role chunk
// and the first delta, as one read), after a --pause-ms sleep (cold: the process lost its core and caches,
// as between a ttft stream's chunks) or back to back (warm); "later read": one event through a stream's
// existing decoder, warm. Medians in µs; checkouts alternate within each round.
//
//   node bench/micro/ttft-first-read.mjs --roots /tmp/base,. [--rounds 3]
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    roots: { type: 'string', default: join(HERE, '..', '..') },
    rounds: { type: 'string', default: '3' },
    'pause-ms': { type: 'string', default: '5' },
    'cold-reads': { type: 'string', default: '600' },
    'warm-reads': { type: 'string', default: '3000' },
  },
});

const chunk = (content, role) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-fake1',
    object: 'chat.completion.chunk',
    created: 1795974642,
    model: 'gpt-4o-mini',
    service_tier: 'default',
    system_fingerprint: 'fp_fake_upstream',
    choices: [
      {
        index: 0,
        delta: role === undefined ? { content } : { role, content, refusal: null },
        logprobs: null,
        finish_reason: null,
      },
    ],
    usage: null,
  })}\n\n`;
// The fake upstream's first read of a ttft stream, and one later read.
const FIRST_READ = Buffer.from(chunk('', 'assistant') + chunk('Lorem ipsum dolor sit'));
const LATER_READ = Buffer.from(chunk(' amet consectetur adipiscing elit'));

function relayModules(root) {
  const require = createRequire(join(root, 'package.json'));
  const dist = join(root, 'apps', 'relay', 'dist');
  return {
    SseDecoder: require(join(dist, 'sse', 'sse.js')).SseDecoder,
    OpenAiChatStream: require(join(dist, 'providers', 'openai', 'chat-stream.js')).OpenAiChatStream,
    openAiChatProtocol: require(join(dist, 'dialects', 'openai', 'chat.protocol.js')).openAiChatProtocol,
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const micros = (from) => Number(process.hrtime.bigint() - from) / 1000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One first read: decode, transform, render; µs of each. */
function firstRead(m) {
  const t0 = process.hrtime.bigint();
  const decoder = new m.SseDecoder();
  const transformer = new m.OpenAiChatStream();
  const out = m.openAiChatProtocol.createStream({ model: 'm', messages: [], stream: true }, {});
  const events = decoder.push(FIRST_READ);
  const decode = micros(t0);
  const chunks = events.flatMap((event) => transformer.push(event));
  const transform = micros(t0) - decode;
  let text = '';
  for (const c of chunks) text += out.push(c, undefined);
  const total = micros(t0);
  if (text === '') throw new Error('nothing rendered');
  return { decode, transform, render: total - decode - transform, total };
}

async function measure(m, pauseMs, reads) {
  const rows = [];
  for (let i = 0; i < reads; i++) {
    if (pauseMs > 0) await sleep(pauseMs);
    rows.push(firstRead(m));
  }
  const kept = rows.slice(Math.floor(reads / 10));
  return Object.fromEntries(Object.keys(kept[0]).map((k) => [k, median(kept.map((r) => r[k]))]));
}

function laterRead(m) {
  const decoder = new m.SseDecoder();
  const loops = 200_000;
  for (let i = 0; i < loops; i++) decoder.push(LATER_READ);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < loops; i++) decoder.push(LATER_READ);
  return micros(t0) / loops;
}

const fmt = (r) =>
  Object.entries(r)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(', ');
const roots = args.roots.split(',').map((r) => resolve(r));
const modules = roots.map(relayModules);
for (let round = 0; round < Number(args.rounds); round++) {
  const order = round % 2 === 0 ? roots.keys() : [...roots.keys()].reverse();
  for (const i of order) {
    const cold = await measure(modules[i], Number(args['pause-ms']), Number(args['cold-reads']));
    const warm = await measure(modules[i], 0, Number(args['warm-reads']));
    console.log(
      `round ${round + 1} ${roots[i]}: first read cold (${args['pause-ms']} ms pause) ${fmt(cold)} µs; ` +
        `warm ${fmt(warm)} µs; a later read's decode, warm ${laterRead(modules[i]).toFixed(2)} µs`,
    );
  }
}
