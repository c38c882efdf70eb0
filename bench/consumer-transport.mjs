#!/usr/bin/env node
// Event consumers: the BusConsumer path (a provider that subscribes itself, as the removed BusConsumer
// class did) against a @BusEvent handler served by EventBusTransport
// (the bus as a Nest custom transport), on the in-process bus and on Kafka. Each run is its own
// process: it publishes N small events to a fresh topic, then starts the consumer in a Nest app and
// times from the consumer's bus.subscribe call (joining its group) to the N-th event handled: the
// group join, fetches, schema decoding, the handler calls and the commits, in wall clock and in the
// process's CPU (process.cpuUsage). Both handlers do the same trivial work (sum a field).
//
//   node scripts/build.mjs          # or: npx tsc -b libs/runtime/tsconfig.json
//   bash scripts/infra.sh up && eval "$(bash scripts/infra.sh env)"   # for --buses kafka
//   node bench/consumer-transport.mjs [--events 20000] [--calls 100000] [--runs 3] [--buses memory,kafka,calls]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { fmt, fmtInt, median } from './lib/stats.mjs';
import { workspacePackage } from './lib/workspace.mjs';

const VARIANTS = ['bus-consumer', 'nest-transport'];
const PARTITIONS = 3;
// The settings of billing's usage.recorded consumer.
const BATCHING = { minBytes: 64 * 1024, maxWaitMs: 100 };

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

async function orchestrate() {
  const events = Number(option('events', '20000'));
  const runs = Number(option('runs', '3'));
  const calls = Number(option('calls', '100000'));
  const buses = option('buses', 'memory,kafka,calls').split(',');
  if (buses.includes('kafka') && !process.env.KAFKA_BROKERS) {
    throw new Error('--buses kafka needs KAFKA_BROKERS: eval "$(bash scripts/infra.sh env)"');
  }
  const results = [];
  for (const bus of buses) {
    for (let run = 1; run <= runs; run++) {
      // Alternate which variant goes first so a drift of the machine favours neither.
      const order = run % 2 === 1 ? VARIANTS : [...VARIANTS].reverse();
      for (const variant of order) {
        const out = execFileSync(
          process.execPath,
          [
            fileURLToPath(import.meta.url),
            '--child',
            '--bus',
            bus,
            '--variant',
            variant,
            '--events',
            String(bus === 'calls' ? calls : events),
          ],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
        );
        const result = { bus, run, ...JSON.parse(out.trim().split('\n').pop()) };
        results.push(result);
        console.error(
          `${bus} run ${run} ${variant}: ${fmtInt(result.eventsPerSecond)} events/s, ` +
            `${fmt(result.cpuMsPer1000)} CPU ms / 1000 events, ${result.calls} handler calls, ` +
            `bus → handler ${fmt(result.callOverheadMicros, 0)} µs a call (at most ${fmt(result.maxCallOverheadMicros, 0)}), ` +
            `first call after ${fmtInt(result.firstCallMs)} ms, Nest start-up ${fmtInt(result.startMs)} ms`,
        );
      }
    }
  }
  console.log(report(results, { events, calls, runs }));
}

function report(results, { events, calls, runs }) {
  const lines = [
    `N = ${fmtInt(events)} events per run, ${PARTITIONS} partitions, batching ${JSON.stringify(BATCHING)}, ` +
      `medians of ${runs} runs (each its own process). Bus "calls": no bus, the subscription's handler ` +
      `called ${fmtInt(calls)} times in a row with one event each (events/s = calls/s).`,
    '',
    '| bus | consumer | events/s | CPU ms / 1000 events | handler calls | bus → handler µs a call (at most) | first call after ms | Nest start-up ms | runs: events/s | runs: CPU ms / 1000 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const bus of new Set(results.map((r) => r.bus))) {
    for (const variant of VARIANTS) {
      const rows = results.filter((r) => r.bus === bus && r.variant === variant);
      const pick = (key) => median(rows.map((r) => r[key]));
      lines.push(
        `| ${bus} | ${variant} | ${fmtInt(pick('eventsPerSecond'))} | ${fmt(pick('cpuMsPer1000'))} | ` +
          `${fmtInt(pick('calls'))} | ${fmt(pick('callOverheadMicros'), 0)} (${fmt(pick('maxCallOverheadMicros'), 0)}) | ` +
          `${fmtInt(pick('firstCallMs'))} | ${fmtInt(pick('startMs'))} | ` +
          `${rows.map((r) => fmtInt(r.eventsPerSecond)).join(', ')} | ${rows.map((r) => fmt(r.cpuMsPer1000)).join(', ')} |`,
      );
    }
  }
  return lines.join('\n');
}

async function measure({ busKind, variant, events }) {
  const { InProcessEventBus, KafkaEventBus, silentEventBusLogger } = workspacePackage('@tollgate/events');
  const { z } = workspacePackage('zod');
  const id = `${Date.now()}-${randomBytes(3).toString('hex')}`;
  const topic = `bench.consumer-transport.${id}`;
  const group = `bench.${variant}.${id}`;
  const bus =
    busKind === 'kafka'
      ? new KafkaEventBus({
          brokers: process.env.KAFKA_BROKERS.split(','),
          clientId: 'bench-consumer-transport',
          logger: silentEventBusLogger,
        })
      : // Keeps every record published before the group exists (the default trims at 10 000 a partition).
        new InProcessEventBus({ logger: silentEventBusLogger, retainRecordsPerPartition: events });
  await bus.ensureTopics([{ name: topic, partitions: PARTITIONS }]);
  for (let from = 0; from < events; from += 1000) {
    const chunk = [];
    for (let n = from; n < Math.min(events, from + 1000); n++) {
      chunk.push({ topic, key: String(n % 97), value: { v: 1, n, amount: n % 100 } });
    }
    await bus.publish(chunk);
  }

  // Both variants load the same modules before the clock starts.
  void workspacePackage('@nestjs/core').NestFactory;
  void workspacePackage('@tollgate/runtime').EventBusTransport;
  const schema = z.object({ v: z.literal(1), n: z.number().int(), amount: z.number().int() });
  const tally = new Tally(events);
  // The clock starts when the consumer asks to join its group: what comes before (Nest building
  // the app) is reported apart, as start-up.
  const timedBus = {
    ensureTopics: (topics) => bus.ensureTopics(topics),
    publish: (records) => bus.publish(records),
    table: (name, decode) => bus.table(name, decode),
    close: () => bus.close(),
    subscribe: (options) => {
      tally.start();
      const handler = (batch) => {
        tally.entered.set(batch, performance.now());
        return options.handler(batch);
      };
      return bus.subscribe({ ...options, handler });
    },
  };
  const created = performance.now();
  const app = await (variant === 'bus-consumer'
    ? startBusConsumer({ bus: timedBus, topic, group, schema, tally })
    : startNestTransport({ bus: timedBus, topic, group, schema, tally }));
  const { wallMs, cpuMicros, firstCallMs, betweenMs, maxBetweenMs } = await tally.done;
  await app.close();
  await bus.close();
  if (tally.sum !== expectedSum(events)) {
    throw new Error(`handled sum ${tally.sum}, expected ${expectedSum(events)}`);
  }
  return {
    variant,
    events,
    eventsPerSecond: (events / wallMs) * 1000,
    cpuMsPer1000: cpuMicros / 1000 / (events / 1000),
    calls: tally.calls,
    firstCallMs,
    // Microseconds from the bus calling its handler to the work starting, per call and at most.
    callOverheadMicros: (betweenMs * 1000) / tally.calls,
    maxCallOverheadMicros: maxBetweenMs * 1000,
    startMs: tally.startedAt - created,
  };
}

/**
 * What each variant puts between the bus and the work, alone: no bus, the subscription's handler
 * called directly, one event per call and one call at a time (the worst case, a quiet topic).
 */
async function measureCalls({ variant, events: calls }) {
  const { z } = workspacePackage('zod');
  void workspacePackage('@nestjs/core').NestFactory;
  void workspacePackage('@tollgate/runtime').EventBusTransport;
  const schema = z.object({ v: z.literal(1), n: z.number().int(), amount: z.number().int() });
  const warmUp = 1000;
  const tally = new Tally(warmUp + calls);
  let subscribed;
  const capturingBus = {
    ensureTopics: async () => undefined,
    publish: async () => undefined,
    table: async () => {
      throw new Error('no tables here');
    },
    close: async () => undefined,
    subscribe: async (options) => {
      subscribed = options;
      return { stop: async () => undefined };
    },
  };
  const topic = 'bench.calls';
  const group = `bench.${variant}.calls`;
  const created = performance.now();
  const app = await (variant === 'bus-consumer'
    ? startBusConsumer({ bus: capturingBus, topic, group, schema, tally })
    : startNestTransport({ bus: capturingBus, topic, group, schema, tally }));
  const startMs = performance.now() - created;
  const record = (n) => ({
    topic,
    partition: 0,
    offset: String(n),
    key: '1',
    headers: {},
    timestamp: 0,
    value: { v: 1, n, amount: n % 100 },
  });
  for (let n = 0; n < warmUp; n++) await subscribed.handler([record(n)]);
  const startedAt = performance.now();
  const cpuAtStart = process.cpuUsage();
  for (let n = warmUp; n < warmUp + calls; n++) await subscribed.handler([record(n)]);
  const cpu = process.cpuUsage(cpuAtStart);
  const wallMs = performance.now() - startedAt;
  await app.close();
  if (tally.sum !== expectedSum(warmUp + calls)) {
    throw new Error(`handled sum ${tally.sum}, expected ${expectedSum(warmUp + calls)}`);
  }
  return {
    variant,
    events: calls,
    eventsPerSecond: (calls / wallMs) * 1000,
    cpuMsPer1000: (cpu.user + cpu.system) / 1000 / (calls / 1000),
    calls,
    firstCallMs: Number.NaN,
    callOverheadMicros: Number.NaN,
    maxCallOverheadMicros: Number.NaN,
    startMs,
  };
}

/** The trivial work both consumers do, and the clock: from joining the group to the N-th event. */
class Tally {
  sum = 0;
  count = 0;
  calls = 0;
  entered = new WeakMap();
  betweenMs = 0;
  maxBetweenMs = 0;

  constructor(expected) {
    this.expected = expected;
    this.done = new Promise((resolve) => (this.finish = resolve));
  }

  start() {
    this.startedAt = performance.now();
    this.cpuAtStart = process.cpuUsage();
  }

  async add(events) {
    // The same array the bus handed over: how long from the bus's call to the work (Nest's part).
    const waited = performance.now() - this.entered.get(events);
    this.betweenMs += waited;
    this.maxBetweenMs = Math.max(this.maxBetweenMs, waited);
    if (this.calls++ === 0) this.firstCallMs = performance.now() - this.startedAt;
    for (const event of events) this.sum += event.value.amount;
    this.count += events.length;
    if (this.count === this.expected) {
      const cpu = process.cpuUsage(this.cpuAtStart);
      this.finish({
        wallMs: performance.now() - this.startedAt,
        cpuMicros: cpu.user + cpu.system,
        firstCallMs: this.firstCallMs,
        betweenMs: this.betweenMs,
        maxBetweenMs: this.maxBetweenMs,
      });
    }
  }
}

function expectedSum(events) {
  let sum = 0;
  for (let n = 0; n < events; n++) sum += n % 100;
  return sum;
}

/**
 * (a) The consumer as it was before the transport: a provider of a Nest application context that
 * subscribes itself on bootstrap with the schema as the bus's decode (what BusConsumer, now removed
 * in favour of (b), did).
 */
async function startBusConsumer({ bus, topic, group, schema, tally }) {
  const { Module } = workspacePackage('@nestjs/common');
  const { NestFactory } = workspacePackage('@nestjs/core');

  class TallyConsumer {
    async onApplicationBootstrap() {
      this.subscription = await bus.subscribe({
        groupId: group,
        topics: [topic],
        batching: BATCHING,
        decode: (value) => schema.parse(value),
        handler: (events) => tally.add(events),
      });
    }

    async onModuleDestroy() {
      await this.subscription?.stop();
    }
  }
  class ConsumerModule {}
  Module({ providers: [TallyConsumer] })(ConsumerModule);
  const app = await NestFactory.createApplicationContext(ConsumerModule, { logger: false });
  await app.init();
  return app;
}

/** (b) The same consumer as a @BusEvent controller method served by EventBusTransport. */
async function startNestTransport({ bus, topic, group, schema, tally }) {
  const { Controller, Module } = workspacePackage('@nestjs/common');
  const { NestFactory } = workspacePackage('@nestjs/core');
  const { BusEvent, EventBusTransport } = workspacePackage('@tollgate/runtime');

  class TallyController {
    settle(events) {
      return tally.add(events);
    }
  }
  // What `@Controller() class … { @BusEvent(topic, {...}) settle(events) }` compiles to.
  const settle = Object.getOwnPropertyDescriptor(TallyController.prototype, 'settle');
  BusEvent(topic, { group, schema, batching: BATCHING })(TallyController.prototype, 'settle', settle);
  Controller()(TallyController);
  class ConsumerModule {}
  Module({ controllers: [TallyController] })(ConsumerModule);
  const app = await NestFactory.createMicroservice(ConsumerModule, {
    strategy: new EventBusTransport(bus),
    logger: false,
  });
  await app.listen();
  return app;
}

if (process.argv.includes('--child')) {
  const result = await (option('bus') === 'calls' ? measureCalls : measure)({
    busKind: option('bus'),
    variant: option('variant'),
    events: Number(option('events')),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await orchestrate();
}
