#!/usr/bin/env node
// What validating one usage.recorded event costs each consumer (issue 17, H72): the schema each service
// subscribes with (billing's `settledUsageOfEvent`, auth's `tokenUsageOfEvent`, admin's
// `channelUsageOfEvent`, read from the checkout's compiled consumers) and contracts' whole
// `usageRecordedV1`, each `safeParse`d on events as relay publishes them and as the bus hands them over
// (JSON.parse of the value: plain objects, one per event). CPU µs per event of `safeParse` alone, the median
// of --passes passes over --events distinct events, each schema alone in its own child process (as a
// consumer's process parses its one schema: sharing a process, schemas slow each other's zod calls).
// With --fields, where the whole schema's time goes: for each field, the schema with only that field
// unchecked (`any`) — the difference from the whole is what the field's checks cost inside the object —
// the object with every field unchecked (zod's object machinery alone), and three fields parsed alone.
// One child process per schema, checkout and round, checkouts alternating (and which goes first), so
// rounds give interleaved pairs. Every child is killed past --deadline-s. Nothing but CPU: no infrastructure.
//
//   node bench/micro/usage-event-validation.mjs --roots base=/tmp/h72/base,head=. [--rounds 5]
//     [--events 4000] [--passes 25] [--fields] [--deadline-s 120] [--out FILE.json]
//
// A checkout needs libs/contracts and apps/{billing,auth,admin} compiled (`npx tsc -b apps/billing
// apps/auth apps/admin`) and its own node_modules/@tollgate links (a copy's links to /work/main's would
// load /work/main's code).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchUsageEvent } from '../lib/usage-consumer.mjs';

const { values: args } = parseArgs({
  options: {
    roots: { type: 'string', default: 'head=.' },
    rounds: { type: 'string', default: '5' },
    events: { type: 'string', default: '4000' },
    passes: { type: 'string', default: '25' },
    fields: { type: 'boolean', default: false },
    only: { type: 'string' },
    'deadline-s': { type: 'string', default: '120' },
    out: { type: 'string' },
    child: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log(`usage: node bench/micro/usage-event-validation.mjs [options]
  --roots L=DIR,...   checkouts to compare, each labelled (default head=.)
  --rounds N          child processes per checkout, alternating (default 5)
  --events N          distinct events per pass (default 4000)
  --passes N          timed passes per schema in a child; the median is kept (default 25)
  --fields            also where the whole schema's time goes, field by field
  --only A,B          only these of the rows (billing, auth, admin, whole, or a --fields row's name)
  --deadline-s S      a child still running after S seconds is killed (default 120)
  --out FILE          every child's result as JSON`);
  process.exit(0);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A usage event as relay publishes it for an answered call, as the bus decodes it (JSON). */
function usageEvent(index) {
  const event = {
    ...benchUsageEvent({
      userId: 1 + (index % 1000),
      tokenId: 1 + (index % 3000),
      channelId: 1 + (index % 12),
      createdAt: 1_764_300_000 + (index >> 4),
    }),
    request_id: randomUUID(),
    prompt_tokens: 10 + (index % 900),
    completion_tokens: index % 2000,
    quota: 1 + (index % 5000),
    latency_ms: 200 + (index % 3000),
    ttft_ms: index % 2 ? 90 + (index % 400) : null,
    is_stream: index % 2 === 1,
    response_id: `chatcmpl-${randomUUID()}`,
    finish_reason: 'stop',
  };
  return JSON.parse(JSON.stringify(event));
}

/** Events each schema must refuse (a check that the timed schemas are the real ones). */
const REFUSED = [
  (event) => ({ ...event, event_id: 'not-a-uuid' }),
  (event) => ({ ...event, quota: 1.5 }),
  (event) => ({ ...event, v: 2 }),
];

/** The consumers' schemas and the whole one; with --fields, the parts that say where its time goes. */
const CONSUMERS = {
  billing: ['apps/billing/dist/usage/usage-recorded.consumer.js', 'settledUsageOfEvent'],
  auth: ['apps/auth/dist/token-usage/token-usage.consumer.js', 'tokenUsageOfEvent'],
  admin: ['apps/admin/dist/channels/channel-usage.consumer.js', 'channelUsageOfEvent'],
};
const WHOLE = 'usageRecordedV1 (whole)';
const FIELDS = [
  'v',
  'event_id',
  'request_id',
  'user_id',
  'token_id',
  'token_name',
  'channel_id',
  'group',
  'model',
  'upstream_model',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'quota',
  'price',
  'latency_ms',
  'ttft_ms',
  'is_stream',
  'status',
  'created_at',
  'response_id',
  'finish_reason',
];
const PARTS = [
  ...FIELDS.map((field) => `- ${field}`),
  '- price: its 4 decimals',
  'object, every field unchecked',
  'event_id alone',
  'price.input alone (a decimal)',
  'group alone',
];

/** The named schema of the checkout at `root`, and what it is given (a whole event or one field). */
function schemaOf(root, name) {
  const load = createRequire(join(root, 'package.json'));
  if (CONSUMERS[name]) {
    const [module, exported] = CONSUMERS[name];
    return { schema: load(join(root, module))[exported], input: (event) => event };
  }
  const full = load('@tollgate/contracts').usageRecordedV1;
  const { z } = createRequire(load.resolve('@tollgate/contracts'))(full._zod ? 'zod/v4' : 'zod');
  const shape = full.shape;
  const unchecked = (keys) => Object.fromEntries(keys.map((key) => [key, z.any()]));
  const whole = (schema) => ({ schema, input: (event) => event });
  if (name === WHOLE) return whole(full);
  if (name === '- price: its 4 decimals')
    return whole(full.extend({ price: z.object(unchecked(Object.keys(shape.price.shape))) }));
  if (name.startsWith('- ')) return whole(full.extend(unchecked([name.slice(2)])));
  if (name === 'object, every field unchecked') return whole(z.object(unchecked(Object.keys(shape))));
  if (name === 'event_id alone') return { schema: shape.event_id, input: (event) => event.event_id };
  if (name === 'group alone') return { schema: shape.group, input: (event) => event.group };
  return { schema: shape.price.shape.input, input: (event) => event.price.input };
}

/** One schema alone in this process (as a consumer's process parses one), µs per event. */
function measure({ root, name, events: eventCount, passes }) {
  const { schema, input } = schemaOf(root, name);
  const inputs = Array.from({ length: eventCount }, (_, index) => input(usageEvent(index)));
  for (const value of inputs)
    if (!schema.safeParse(value).success) {
      console.error(`${name} refused an event it must accept: ${JSON.stringify(value)}`);
      process.exit(3);
    }
  if (CONSUMERS[name] || name === WHOLE)
    for (const refused of REFUSED)
      if (schema.safeParse(refused(inputs[0])).success) {
        console.error(`${name} accepted an event it must refuse`);
        process.exit(3);
      }
  let accepted = 0;
  // CPU time, not wall time: on a shared machine a pass preempted by another process would count the
  // other's time. The process's (GC's helper threads included): what a consumer pays.
  const pass = () => {
    const start = process.cpuUsage();
    for (const value of inputs) if (schema.safeParse(value).success) accepted++;
    const { user, system } = process.cpuUsage(start);
    return (user + system) / inputs.length;
  };
  for (let warm = 0; warm < 5; warm++) pass();
  const samples = Array.from({ length: passes }, pass);
  if (accepted !== (passes + 5) * inputs.length) {
    console.error(`${name} refused an event it had accepted`);
    process.exit(3);
  }
  return { zod: schema._zod ? 4 : 3, usPerEvent: median(samples) };
}

if (args.child) {
  console.log(JSON.stringify(measure(JSON.parse(args.child))));
  process.exit(0);
}

const roots = args.roots.split(',').map((entry) => {
  const [label, path] = entry.includes('=') ? entry.split('=') : [entry, entry];
  return { label, root: resolve(path) };
});
const names = [...Object.keys(CONSUMERS), WHOLE, ...(args.fields ? PARTS : [])].filter(
  (name) => !args.only || args.only.split(',').includes(name === WHOLE ? 'whole' : name),
);
const results = [];
for (let round = 0; round < Number(args.rounds); round++) {
  const order = round % 2 === 0 ? roots : [...roots].reverse();
  for (const name of names) {
    for (const { label, root } of order) {
      const child = { root, name, events: Number(args.events), passes: Number(args.passes) };
      const out = execFileSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', JSON.stringify(child)],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
          timeout: Number(args['deadline-s']) * 1000,
          killSignal: 'SIGKILL',
        },
      );
      results.push({ round, label, name, ...JSON.parse(out.trim().split('\n').at(-1)) });
    }
  }
  console.error(
    `round ${round}: ` +
      results
        .filter((result) => result.round === round && !result.name.startsWith('-'))
        .slice(0, roots.length * 4)
        .map((result) => `${result.label} ${result.name} ${result.usPerEvent.toFixed(2)}`)
        .join(', '),
  );
}
if (args.out) writeFileSync(args.out, JSON.stringify(results, null, 2));

const labels = roots.map((root) => root.label);
const zodOf = (label) => results.find((result) => result.label === label).zod;
const header = ['µs/event (median of rounds)', ...labels.map((label) => `${label} (zod ${zodOf(label)})`)];
const paired = labels.length === 2;
if (paired) header.push(`${labels[1]} lower`);
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
for (const name of names) {
  const per = labels.map((label) =>
    results
      .filter((result) => result.label === label && result.name === name)
      .map((result) => result.usPerEvent),
  );
  const row = [name, ...per.map((values) => median(values).toFixed(3))];
  if (paired) {
    const lower = per[0].filter((value, index) => per[1][index] < value).length;
    row.push(`${lower} of ${per[0].length}`);
  }
  console.log(`| ${row.join(' | ')} |`);
}
if (args.fields)
  console.log(
    '\n"- field": the whole schema with that field unchecked (`any`); the whole less it is what the\n' +
      "field's checks cost. \"alone\": that field's schema parsed by itself (safeParse's own cost included).",
  );
