#!/usr/bin/env node
// Who has the CPU while billing settles (issue 17, h112): every process's CPU from /proc every
// --interval ms, summed by what its command line says it is (Tollgate's services by apps/<name>/,
// PostgreSQL, Kafka, the Go publisher, the bench, anything else as `other`), one JSON line a sample.
// Run it beside a bench run (under the same lock), then sum a window of it:
//
//   bash -c 'node bench/micro/billing-cpu-timeline.mjs record --out /tmp/cpu.jsonl & S=$!;
//     npm run bench -- --only billing --rounds 1 --no-portkey --no-embedded --out /tmp/run.md; kill $S'
//   node bench/micro/billing-cpu-timeline.mjs summary --out /tmp/cpu.jsonl --from 17:58:17.4 --to 17:58:20 --step 500
//
// Times are UTC, as the bench's log prints them. It showed auth's and admin's usage consumers taking
// twice billing's CPU while the paced phase's events arrived (bench/ANALYSIS.md, h112).
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CLOCK_TICKS, processTable } from '../lib/proc.mjs';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    interval: { type: 'string', default: '100' },
    from: { type: 'string' },
    to: { type: 'string' },
    step: { type: 'string' },
  },
});

const SERVICES = ['billing', 'auth', 'admin', 'relay', 'gateway', 'chat'];

function labelOf(pid) {
  let command;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
  if (command.startsWith('postgres')) return 'postgres';
  if (command.includes('java') && command.includes('kafka')) return 'kafka';
  const service = SERVICES.find((name) => command.includes(`apps/${name}/`));
  if (service) return service;
  if (command.includes('billing-go')) return 'go-publisher';
  if (command.includes('bench/run.mjs')) return 'bench';
  if (command.includes('billing-cpu-timeline')) return undefined;
  return 'other';
}

function record(out, intervalMs) {
  const seen = new Map();
  const sample = () => {
    const byLabel = {};
    const table = processTable();
    for (const [pid, { ticks }] of table) {
      const before = seen.get(pid);
      const label = before ? before.label : labelOf(pid);
      seen.set(pid, { ticks, label });
      if (!before || !label || ticks <= before.ticks) continue;
      byLabel[label] = (byLabel[label] ?? 0) + ((ticks - before.ticks) * 1000) / CLOCK_TICKS;
    }
    for (const pid of seen.keys()) if (!table.has(pid)) seen.delete(pid);
    appendFileSync(out, `${JSON.stringify({ at: Date.now(), cpuMs: byLabel })}\n`);
  };
  const timer = setInterval(sample, intervalMs);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => clearInterval(timer));
}

/** `HH:MM:SS(.s)` UTC of the day of `reference` (epoch ms). */
function timeOfDay(text, reference) {
  return Date.parse(`${new Date(reference).toISOString().slice(0, 10)}T${text}Z`);
}

function summary(out, from, to, stepMs) {
  const samples = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const start = from ? timeOfDay(from, samples[0].at) : samples[0].at;
  const end = to ? timeOfDay(to, samples[0].at) : samples.at(-1).at + 1;
  const step = stepMs ?? end - start;
  for (let a = start; a < end; a += step) {
    const sums = {};
    for (const { at, cpuMs } of samples) {
      if (at < a || at >= Math.min(a + step, end)) continue;
      for (const [label, ms] of Object.entries(cpuMs)) sums[label] = (sums[label] ?? 0) + ms;
    }
    const ranked = Object.entries(sums).sort(([, x], [, y]) => y - x);
    const total = ranked.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(
      `${new Date(a).toISOString().slice(11, 23)} +${Math.min(step, end - a)} ms: total ${total.toFixed(0)} ms; ` +
        ranked.map(([label, ms]) => `${label} ${ms.toFixed(0)}`).join(', '),
    );
  }
}

if (!args.out) throw new Error('--out FILE is required');
if (positionals[0] === 'record') record(args.out, Number(args.interval));
else if (positionals[0] === 'summary')
  summary(args.out, args.from, args.to, args.step ? Number(args.step) : undefined);
else throw new Error('usage: billing-cpu-timeline.mjs record|summary --out FILE [...]');
