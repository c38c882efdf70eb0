#!/usr/bin/env node
// Load generator for streamed chat completions, run by the harness as its own process.
//   --mode hold   open --concurrency streams at once (spread over --ramp-ms), each read to its end
//   --mode ttft   one stream after another for --duration-s seconds
// --body replaces the OpenAI request (the chat service takes its own), --first is the pattern of the
// first chunk with generated text and --done the text that marks a complete stream.
// Prints one JSON line: streams, completed, failed, stalled, TTFT percentiles (ms), the largest gap
// between chunks, the wall time, failures by reason, and peakOpen (the most streams open at once).
// A stall is a gap over --stall-ms between two chunks. bench/load/streams-go is its Go twin.
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    headers: { type: 'string', default: '{}' },
    model: { type: 'string' },
    mode: { type: 'string', default: 'hold' },
    concurrency: { type: 'string', default: '1' },
    'ramp-ms': { type: 'string', default: '1000' },
    'duration-s': { type: 'string', default: '10' },
    'stall-ms': { type: 'string', default: '1000' },
    'timeout-ms': { type: 'string', default: '120000' },
    body: { type: 'string' },
    first: { type: 'string', default: '"content":"[^"]' },
    done: { type: 'string', default: '[DONE]' },
  },
});

const agent = new Agent({
  connections: null,
  pipelining: 1,
  keepAliveTimeout: 30_000,
  headersTimeout: Number(args['timeout-ms']),
  bodyTimeout: 0,
});
const headers = { 'content-type': 'application/json', ...JSON.parse(args.headers) };
const body =
  args.body ??
  JSON.stringify({
    model: args.model,
    messages: [{ role: 'user', content: 'Stream a story to the benchmark.' }],
    stream: true,
  });
const stallMs = Number(args['stall-ms']);
// The first chunk that carries generated text (a role-only opening chunk does not count).
const CONTENT = new RegExp(args.first);
const DONE = args.done;
let open = 0;
let peakOpen = 0;

async function oneStream() {
  const startedAt = performance.now();
  const result = { ok: false, ttft: Number.NaN, maxGap: 0, chunks: 0, reason: undefined };
  let counted = false;
  try {
    const res = await request(args.url, {
      method: 'POST',
      headers,
      body,
      dispatcher: agent,
      signal: AbortSignal.timeout(Number(args['timeout-ms'])),
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      result.reason = `status ${res.statusCode}`;
      return result;
    }
    counted = true;
    peakOpen = Math.max(peakOpen, ++open);
    let last = startedAt;
    let done = false;
    for await (const chunk of res.body) {
      const now = performance.now();
      const text = chunk.toString();
      if (Number.isNaN(result.ttft) && CONTENT.test(text)) result.ttft = now - startedAt;
      if (result.chunks > 0) result.maxGap = Math.max(result.maxGap, now - last);
      last = now;
      result.chunks++;
      if (text.includes(DONE)) done = true;
    }
    result.ok = done;
    if (!done) result.reason = 'ended before the done marker';
  } catch (error) {
    result.ok = false;
    result.reason = error.code ?? error.name ?? 'error';
  } finally {
    if (counted) open--;
  }
  return result;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function hold(concurrency, rampMs) {
  const runs = [];
  for (let i = 0; i < concurrency; i++) {
    runs.push(oneStream());
    // Spread the opening so the run measures holding streams, not a SYN burst.
    if (rampMs > 0 && i % 50 === 49) await new Promise((r) => setTimeout(r, (rampMs * 50) / concurrency));
  }
  return Promise.all(runs);
}

async function sequential(durationS) {
  const results = [];
  const end = performance.now() + durationS * 1000;
  while (performance.now() < end) results.push(await oneStream());
  return results;
}

const started = performance.now();
const results =
  args.mode === 'ttft'
    ? await sequential(Number(args['duration-s']))
    : await hold(Number(args.concurrency), Number(args['ramp-ms']));
const wallMs = performance.now() - started;
const ttfts = results
  .map((r) => r.ttft)
  .filter((t) => Number.isFinite(t))
  .sort((a, b) => a - b);
const gaps = results
  .filter((r) => r.ok)
  .map((r) => r.maxGap)
  .sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    streams: results.length,
    completed: results.filter((r) => r.ok).length,
    failed: results.filter((r) => !r.ok).length,
    stalled: results.filter((r) => r.ok && r.maxGap > stallMs).length,
    ttftP50: percentile(ttfts, 50),
    ttftP99: percentile(ttfts, 99),
    maxGapP99: percentile(gaps, 99),
    maxGap: gaps.at(-1) ?? null,
    wallMs,
    failures: results
      .filter((r) => !r.ok)
      .reduce((counts, r) => ({ ...counts, [r.reason]: (counts[r.reason] ?? 0) + 1 }), {}),
    peakOpen,
    client: 'node',
  })}\n`,
);
await agent.close();
