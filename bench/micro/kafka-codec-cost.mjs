#!/usr/bin/env node
// What the Node side of Kafka costs per usage event (issue 17, H69's draft, made bounded by H71), on a real
// broker, apart from the services. One child process per state, batch size and round:
//   1. produce: publishes --events usage.recorded events through @tollgate/events' KafkaEventBus (relay's
//      producer: idempotent, acks -1; lingerMs 0 so that a batch is exactly --batch records) --batch
//      concurrent publish() calls at a time, as relay's publisher gathers them at c=1 (one event a
//      request) and at c=64 (tens of events a request): CPU µs and heap bytes allocated per event;
//   2. consume: reads them back in a new consumer group with billing's batching (4 MiB / 250 ms), each
//      value decoded with the usage.recorded zod schema, to a handler that only counts. A first group
//      reads the whole log unmeasured (warm code); the measured group's window runs from its subscribe()
//      to the moment every partition's last offset was handled. That window holds the group's join and
//      first offset fetch; a third group on a topic of 3 events measures that fixed part, and `net` is
//      the window less it. The log is read as a lagging consumer reads it (large fetches), but its record
//      batches are as the produce requests made them (one record each at --batch 1).
// Heap bytes are the used heap's growth plus what every GC freed in the window (v8.GCProfiler): Buffers'
// backing stores (outside the heap) are not in them; --count-buffers (a separate diagnostic: it slows the
// calls it counts) wraps Buffer.alloc/allocUnsafe/from and prints their calls and bytes per event. CPU is
// the process's (every thread). --cpu-profile DIR writes each phase's CPU profile and prints its self
// time by package and its top functions; --heap-profile DIR a sampling heap profile and its top
// allocating functions. States alternate within each round (interleaved pairs).
// Every child has a hard deadline (--deadline-s, default 300): past it, it prints what it has and exits 3.
//
//   export TOLLGATE_INFRA_DIR=/tmp/h71-infra
//   bash scripts/infra.sh up kafka && eval "$(bash scripts/infra.sh env kafka)"
//   timeout 1800 node bench/micro/kafka-codec-cost.mjs --roots /tmp/h71/base,. --batches 1,64 \
//     --events 2000,12000 --rounds 3 [--phases produce,consume] [--cpu-profile DIR] [--heap-profile DIR]
//     [--count-buffers] [--out FILE.json]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { benchUsageEvent } from '../lib/usage-event-fixture.mjs';

const { values: args } = parseArgs({
  options: {
    roots: { type: 'string', default: '.' },
    batches: { type: 'string', default: '1,64' },
    events: { type: 'string', default: '2000,12000' },
    rounds: { type: 'string', default: '3' },
    phases: { type: 'string', default: 'produce,consume' },
    'deadline-s': { type: 'string', default: '300' },
    'cpu-profile': { type: 'string' },
    'heap-profile': { type: 'string' },
    'count-buffers': { type: 'boolean', default: false },
    out: { type: 'string' },
    child: { type: 'string' },
  },
});

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function runParent() {
  const roots = args.roots.split(',').map((root) => resolve(root));
  const batches = args.batches.split(',').map(Number);
  const eventCounts = args.events.split(',').map(Number);
  const eventsFor = (i) => eventCounts[Math.min(i, eventCounts.length - 1)];
  const phases = args.phases.split(',');
  const results = [];
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const [i, batch] of batches.entries()) {
      // Each round starts with the other state, so neither always runs first.
      const order = round % 2 ? [...roots].reverse() : roots;
      for (const root of order) {
        const result = await child({ root, batch, events: eventsFor(i), round, phases });
        results.push({ root, batch, round, ...result });
        const parts = [];
        if (result.produce) {
          parts.push(
            `produce ${result.produce.cpuUs.toFixed(1)} µs ${Math.round(result.produce.heapBytes)} B ` +
              `(${result.produce.requests} requests, ${result.produce.recordsPerRequest.toFixed(1)} records each)`,
          );
        }
        if (result.consume) {
          parts.push(
            `consume ${result.consume.cpuUs.toFixed(1)} µs ${Math.round(result.consume.heapBytes)} B, ` +
              `net ${result.consume.netCpuUs.toFixed(1)} µs ${Math.round(result.consume.netHeapBytes)} B ` +
              `(${result.consume.handlerCalls} handler calls; group setup ${(result.consume.setupCpuUs / 1000).toFixed(1)} ms)`,
          );
        }
        console.log(`round ${round} batch ${batch} ${root}: ${parts.join('; ')} per event`);
        if (result.buffers) console.log(`  buffers per event: ${JSON.stringify(result.buffers)}`);
      }
    }
  }
  console.log('\nmedians per event (and in how many pairs the second root is lower than the first)');
  const metrics = {
    produce: ['cpuUs', 'heapBytes'],
    consume: ['cpuUs', 'heapBytes', 'netCpuUs', 'netHeapBytes'],
  };
  for (const batch of batches) {
    for (const phase of phases) {
      for (const metric of metrics[phase]) {
        const per = roots.map((root) =>
          results
            .filter((r) => r.root === root && r.batch === batch && r[phase])
            .map((r) => r[phase][metric]),
        );
        const pairs = per[1] ? Math.min(per[0].length, per[1].length) : 0;
        const lower = per[1] ? per[0].slice(0, pairs).filter((value, i) => per[1][i] < value).length : 0;
        console.log(
          `batch ${batch} ${phase} ${metric}: ${per.map((values) => median(values).toFixed(1)).join(' -> ')}` +
            (per[1] ? ` (${lower} of ${pairs} lower)` : ''),
        );
      }
    }
  }
  if (args.out) writeFileSync(args.out, JSON.stringify(results, null, 2));
}

function child(spec) {
  const deadlineMs = Number(args['deadline-s']) * 1000;
  return new Promise((resolveChild, reject) => {
    const script = fileURLToPath(import.meta.url);
    const proc = spawn(
      process.execPath,
      [
        script,
        '--child',
        JSON.stringify({
          ...spec,
          deadlineMs,
          cpuProfile: args['cpu-profile'],
          heapProfile: args['heap-profile'],
          countBuffers: args['count-buffers'],
        }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // The child's own deadline should have ended it; this is the backstop.
    const killer = setTimeout(() => proc.kill('SIGKILL'), deadlineMs + 30_000);
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.on('exit', (code, signal) => {
      clearTimeout(killer);
      if (code === 0) resolveChild(JSON.parse(out.trim().split('\n').pop()));
      else reject(new Error(`child ${code ?? signal}: ${out.trim().split('\n').pop() ?? ''}`));
    });
  });
}

function usageEvent(i, topic) {
  return { topic, ...benchUsageEvent(i) };
}

/** Buffer allocations by kind (calls and bytes) while counting is on: a diagnostic, it slows them. */
function bufferCounter() {
  const counts = {};
  let on = false;
  const wrap = (name) => {
    const original = Buffer[name];
    Buffer[name] = function (...callArgs) {
      const buffer = original.apply(this, callArgs);
      if (on) {
        const entry = (counts[name] ??= { calls: 0, bytes: 0 });
        entry.calls += 1;
        entry.bytes += buffer.length;
      }
      return buffer;
    };
  };
  ['alloc', 'allocUnsafe', 'allocUnsafeSlow', 'from', 'concat'].forEach(wrap);
  return {
    start: () => {
      for (const key of Object.keys(counts)) delete counts[key];
      on = true;
    },
    stop: (events) => {
      on = false;
      return Object.fromEntries(
        Object.entries(counts).map(([name, { calls, bytes }]) => [
          name,
          { calls: +(calls / events).toFixed(2), bytes: Math.round(bytes / events) },
        ]),
      );
    },
  };
}

/** CPU (µs), heap bytes allocated and optionally profiles of what runs between open() and close(). */
async function openWindow({ cpuProfilePath, heapProfilePath }) {
  let session;
  const post = (method, params) =>
    new Promise((ok, fail) =>
      session.post(method, params, (error, result) => (error ? fail(error) : ok(result))),
    );
  if (cpuProfilePath || heapProfilePath) {
    const { Session } = await import('node:inspector');
    session = new Session();
    session.connect();
  }
  if (cpuProfilePath) {
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
  }
  if (heapProfilePath) {
    await post('HeapProfiler.enable');
    await post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }
  const profiler = new v8.GCProfiler();
  profiler.start();
  const usedAtStart = v8.getHeapStatistics().used_heap_size;
  const cpuAtStart = process.cpuUsage();
  // Synchronous: what counts is read the moment the window closes; the profiles are written after.
  const close = () => {
    const cpu = process.cpuUsage(cpuAtStart);
    const usedAtEnd = v8.getHeapStatistics().used_heap_size;
    const { statistics } = profiler.stop();
    let allocated = 0;
    let previousAfter = usedAtStart;
    for (const gc of statistics) {
      allocated += gc.beforeGC.heapStatistics.usedHeapSize - previousAfter;
      previousAfter = gc.afterGC.heapStatistics.usedHeapSize;
    }
    allocated += usedAtEnd - previousAfter;
    return { cpuUs: cpu.user + cpu.system, heapBytes: allocated };
  };
  const finish = async () => {
    const profiles = {};
    if (cpuProfilePath) {
      ({ profile: profiles.cpu } = await post('Profiler.stop'));
      writeFileSync(cpuProfilePath, JSON.stringify(profiles.cpu));
    }
    if (heapProfilePath) {
      ({ profile: profiles.heap } = await post('HeapProfiler.stopSampling'));
      writeFileSync(heapProfilePath, JSON.stringify(profiles.heap));
    }
    session?.disconnect();
    return profiles;
  };
  return { close, finish };
}

function packageOf(callFrame) {
  const url = callFrame.url;
  if (!url) return callFrame.functionName ? `(${callFrame.functionName.replace(/[()]/g, '')})` : '(vm)';
  if (url.startsWith('node:')) return 'node';
  const modules = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  const lib = url.match(/libs\/([^/]+)\//);
  return modules ? modules[1] : lib ? `@tollgate/${lib[1]}` : 'other';
}

const frameName = (callFrame) =>
  `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*\/libs\//, 'libs/')}:${callFrame.lineNumber + 1}`;

/** Self time by package and the top functions by self time, of the non-idle samples. */
function cpuSummary(profile) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const packages = new Map();
  const functions = new Map();
  let busy = 0;
  for (const id of profile.samples) {
    const { callFrame } = byNode.get(id);
    if (callFrame.functionName === '(idle)' || callFrame.functionName === '(program)') continue;
    busy += 1;
    const pkg = packageOf(callFrame);
    packages.set(pkg, (packages.get(pkg) ?? 0) + 1);
    const name = frameName(callFrame);
    functions.set(name, (functions.get(name) ?? 0) + 1);
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, count]) => `${key} ${((100 * count) / busy).toFixed(1)}%`);
  return `busy samples ${busy}\n    by package: ${top(packages, 8).join(', ')}\n    functions: ${top(functions, 14).join('\n      ')}`;
}

/** Bytes allocated by function (self) in a sampling heap profile, of its total. */
function heapSummary(profile) {
  const functions = new Map();
  let total = 0;
  const walk = (node) => {
    const bytes = node.selfSize;
    if (bytes) {
      total += bytes;
      const name = frameName(node.callFrame);
      functions.set(name, (functions.get(name) ?? 0) + bytes);
    }
    node.children.forEach(walk);
  };
  walk(profile.head);
  return [...functions]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 14)
    .map(([name, bytes]) => `${name} ${((100 * bytes) / total).toFixed(1)}%`)
    .join('\n      ');
}

async function runChild({
  root,
  batch,
  events,
  round,
  phases,
  deadlineMs,
  cpuProfile,
  heapProfile,
  countBuffers,
}) {
  const deadline = setTimeout(() => {
    console.error(`deadline: ${deadlineMs} ms passed in phase ${phase} (${JSON.stringify(progress)})`);
    console.log(JSON.stringify({ deadline: true, phase, progress }));
    process.exit(3);
  }, deadlineMs);
  let phase = 'setup';
  const progress = {};
  const requireFromRoot = createRequire(join(root, 'package.json'));
  const buffers = countBuffers ? bufferCounter() : undefined;
  const { KafkaEventBus, silentEventBusLogger } = requireFromRoot('@tollgate/events');
  const { usageRecordedV1 } = requireFromRoot('@tollgate/contracts');
  const kafkajsPath = createRequire(requireFromRoot.resolve('@tollgate/events')).resolve('kafkajs');
  const { Kafka } = createRequire(kafkajsPath)(kafkajsPath);
  const Broker = createRequire(kafkajsPath)('./src/broker');
  const brokers = process.env.KAFKA_BROKERS?.split(',');
  if (!brokers) throw new Error('KAFKA_BROKERS is not set (eval "$(bash scripts/infra.sh env kafka)")');

  // Produce requests and the records they carried, counted at kafkajs's broker.
  const produced = { requests: 0, records: 0 };
  const produce = Broker.prototype.produce;
  Broker.prototype.produce = function (request) {
    produced.requests += 1;
    for (const { partitions } of request.topicData) {
      for (const { messages } of partitions) produced.records += messages.length;
    }
    return produce.call(this, request);
  };

  const bus = new KafkaEventBus({
    brokers,
    clientId: 'h71-codec',
    logger: silentEventBusLogger,
    replicationFactor: 1,
    defaultPartitions: 3,
    lingerMs: 0,
  });
  const admin = new Kafka({ clientId: 'h71-codec-admin', brokers, logLevel: 0 }).admin();
  await admin.connect();
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const topic = `h71.usage.${suffix}`;
  const tinyTopic = `h71.tiny.${suffix}`;
  await bus.ensureTopics([
    { name: topic, partitions: 3 },
    { name: tinyTopic, partitions: 3 },
  ]);
  const label = `${root.split('/').filter(Boolean).pop()}-b${batch}-r${round}`;
  for (const dir of [cpuProfile, heapProfile]) if (dir) mkdirSync(dir, { recursive: true });
  const profilePaths = (name) => ({
    cpuProfilePath: cpuProfile && join(cpuProfile, `${label}-${name}.cpuprofile`),
    heapProfilePath: heapProfile && join(heapProfile, `${label}-${name}.heapprofile`),
  });
  const sample = usageEvent(0, topic);
  usageRecordedV1.parse(sample.value); // a schema failure would dead-letter every event and never finish

  const publishAll = async (list) => {
    for (let i = 0; i < list.length; i += batch) {
      // As relay does: one publish() per call; a batch's calls publish together and wait for each other.
      await Promise.all(list.slice(i, i + batch).map((event) => bus.publish([event])));
      progress.published = (progress.published ?? 0) + Math.min(batch, list.length - i);
    }
  };

  phase = 'warm-up produce';
  const warm = Math.ceil(events / 5 / batch) * batch;
  await publishAll(Array.from({ length: warm }, (_, i) => usageEvent(i, topic)));
  const prepared = Array.from({ length: events }, (_, i) => usageEvent(warm + i, topic));
  const result = {};
  const report = [];

  phase = 'produce';
  if (phases.includes('produce')) {
    const window = await openWindow(profilePaths('produce'));
    const before = { ...produced };
    buffers?.start();
    await publishAll(prepared);
    const measured = window.close();
    const bufferCounts = buffers?.stop(events);
    const profiles = await window.finish();
    const requests = produced.requests - before.requests;
    result.produce = {
      cpuUs: measured.cpuUs / events,
      heapBytes: measured.heapBytes / events,
      requests,
      recordsPerRequest: (produced.records - before.records) / requests,
    };
    if (bufferCounts) result.buffers = { produce: bufferCounts };
    if (profiles.cpu) report.push(`${label} produce CPU: ${cpuSummary(profiles.cpu)}`);
    if (profiles.heap) report.push(`${label} produce heap:\n      ${heapSummary(profiles.heap)}`);
  } else {
    await publishAll(prepared);
  }

  await bus.publish([0, 1, 2].map((i) => ({ ...usageEvent(i, tinyTopic), key: `k${i}` })));

  /** Reads `name` from the start in a new group; resolves when every partition's last offset was handled. */
  const readAll = async (name, readTopic, measure) => {
    const ends = new Map(
      (await admin.fetchTopicOffsets(readTopic)).map(({ partition, high }) => [partition, Number(high) - 1]),
    );
    const done = new Map([...ends].filter(([, end]) => end < 0).map(([partition]) => [partition, true]));
    let handlerCalls = 0;
    let delivered = 0;
    let closed = false;
    let finished;
    const allRead = new Promise((ok) => (finished = ok));
    const window = measure ? await openWindow(profilePaths(name)) : undefined;
    buffers?.start();
    const subscription = await bus.subscribe({
      groupId: `h71-${name}-${randomUUID()}`,
      topics: [readTopic],
      fromBeginning: true,
      batching: { minBytes: 4 * 1024 * 1024, maxWaitMs: 250 },
      decode: (value) => usageRecordedV1.parse(value),
      handler: async (records) => {
        handlerCalls += 1;
        delivered += records.length;
        progress[name] = delivered;
        const last = records[records.length - 1];
        if (Number(last.offset) >= ends.get(last.partition)) done.set(last.partition, true);
        if (done.size === ends.size && !closed) {
          closed = true;
          finished(window?.close());
        }
      },
    });
    const measured = await allRead;
    const bufferCounts = buffers?.stop(delivered);
    const profiles = window ? await window.finish() : {};
    await subscription.stop();
    return { measured, handlerCalls, delivered, profiles, bufferCounts };
  };

  if (phases.includes('consume')) {
    phase = 'consume warm-up';
    await readAll('warm', topic, false);
    phase = 'consume setup';
    const setup = await readAll('setup', tinyTopic, true);
    phase = 'consume';
    const full = await readAll('consume', topic, true);
    const n = full.delivered;
    result.consume = {
      cpuUs: full.measured.cpuUs / n,
      heapBytes: full.measured.heapBytes / n,
      netCpuUs: (full.measured.cpuUs - setup.measured.cpuUs) / n,
      netHeapBytes: (full.measured.heapBytes - setup.measured.heapBytes) / n,
      setupCpuUs: setup.measured.cpuUs,
      events: n,
      handlerCalls: full.handlerCalls,
    };
    if (full.bufferCounts) result.buffers = { ...result.buffers, consume: full.bufferCounts };
    if (full.profiles.cpu) report.push(`${label} consume CPU: ${cpuSummary(full.profiles.cpu)}`);
    if (full.profiles.heap) report.push(`${label} consume heap:\n      ${heapSummary(full.profiles.heap)}`);
  }

  phase = 'close';
  await admin.deleteTopics({ topics: [topic, tinyTopic] }).catch(() => undefined);
  await admin.disconnect();
  await bus.close();
  clearTimeout(deadline);
  for (const line of report) console.error(line);
  console.log(JSON.stringify(result));
  process.exit(0);
}

// Last: the functions above are consts, not hoisted.
if (args.child) await runChild(JSON.parse(args.child));
else await runParent();
