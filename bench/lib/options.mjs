// Command-line options of bench/run.mjs.
import { parseArgs } from 'node:util';

export const LOAD_GENERATORS = ['wrk', 'k6'];

export const SCENARIOS = ['latency', 'throughput', 'ttft', 'chat', 'streams', 'billing', 'profile'];

export const USAGE = `Usage: node bench/run.mjs [options]      (npm run bench -- [options])

  --smoke              every scenario for a few seconds, no Portkey install needed if cached; for npm test
  --only a,b           scenarios among ${SCENARIOS.join(', ')} (default: all)
  --rounds N           rounds per scenario, targets alternating (default 3; smoke 1; latency at least 3)
  --workers N|auto     gateway and relay worker processes (TOLLGATE_WORKERS_*; default 1)
  --stream-levels a,b  concurrent streams to try (default 1000,5000,10000)
  --infra own|env      own PostgreSQL/Redis/Kafka via scripts/infra.sh (default) or the ones in the environment
  --no-portkey         leave Portkey's gateway out
  --no-embedded        leave the embedded-mode target (tollgate-embedded) out
  --billing-users N    users the billing burst's events are spread over (default BENCH_BILLING_USERS or 1000)
  --billing-publishers N  threads publishing the billing burst (default BENCH_BILLING_PUBLISHERS or 1)
  --load-generator wrk|k6  what drives the non-streaming loads (default wrk: a C event loop; k6's
                       JavaScript virtual users cost the shared cores several times more per call)
  --warmup-seconds N   load each target this long before the first scenario (default 30; smoke 1)
  --broker-warmup-seconds N  then keep loading distributed Tollgate, in 10 s steps, until its Kafka
                       broker's JIT compiler is quiet, for at most N s (default 180; smoke and 0: not at all)
  --out FILE           where the report goes (default bench/RESULTS.md; smoke: reports/bench-smoke/RESULTS.md)
  --render FILE.json   write FILE.md again from a stored run (e.g. after bench/ANALYSIS.md changed)
  --help               this text
`;

export function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      smoke: { type: 'boolean', default: false },
      only: { type: 'string' },
      rounds: { type: 'string' },
      workers: { type: 'string', default: '1' },
      'stream-levels': { type: 'string' },
      infra: { type: 'string', default: 'own' },
      'no-portkey': { type: 'boolean', default: false },
      'no-embedded': { type: 'boolean', default: false },
      'billing-users': { type: 'string' },
      'billing-publishers': { type: 'string' },
      'warmup-seconds': { type: 'string' },
      'broker-warmup-seconds': { type: 'string' },
      'load-generator': { type: 'string', default: 'wrk' },
      out: { type: 'string' },
      render: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return { help: true };
  if (values.render) return { render: values.render };
  const scenarios = values.only ? values.only.split(',').map((s) => s.trim()) : SCENARIOS;
  const unknown = scenarios.filter((s) => !SCENARIOS.includes(s));
  if (unknown.length) throw new Error(`unknown scenario(s): ${unknown.join(', ')}\n${USAGE}`);
  if (!['own', 'env'].includes(values.infra)) throw new Error(`--infra must be own or env\n${USAGE}`);
  if (!LOAD_GENERATORS.includes(values['load-generator']))
    throw new Error(`--load-generator must be ${LOAD_GENERATORS.join(' or ')}\n${USAGE}`);
  if (!/^(auto|[1-9]\d*)$/.test(values.workers))
    throw new Error(`--workers must be a positive integer or auto`);
  const positive = (name) => {
    const value = values[name];
    if (value === undefined) return undefined;
    if (!/^[1-9]\d*$/.test(value)) throw new Error(`--${name} must be a positive integer`);
    return Number(value);
  };
  const billingUsers = positive('billing-users');
  const billingPublishers = positive('billing-publishers');
  const warmupSeconds = positive('warmup-seconds');
  const brokerWarmup = values['broker-warmup-seconds'];
  if (brokerWarmup !== undefined && !/^\d+$/.test(brokerWarmup))
    throw new Error('--broker-warmup-seconds must be a whole number of seconds');
  const smoke = values.smoke;
  const rounds = Number(values.rounds ?? (smoke ? 1 : 3));
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive integer');
  return {
    smoke,
    scenarios,
    rounds,
    workers: values.workers,
    infra: values.infra,
    loadGenerator: values['load-generator'],
    portkey: !values['no-portkey'],
    embedded: !values['no-embedded'],
    out: values.out,
    streamLevels: values['stream-levels']
      ? values['stream-levels'].split(',').map(Number)
      : smoke
        ? [20]
        : [1000, 5000, 10000],
    // Seconds per measurement and load shapes; smoke keeps every step to a couple of seconds.
    // Smoke: one second per non-streaming load, so that the embedded target adds little to npm test.
    latencySeconds: smoke ? 1 : 10,
    // At least three rounds of the c=1 windows (10 s a target each), whatever --rounds says: a p99 at c=1
    // is the tail of a sub-millisecond call, which one burst of other work on the two cores can move by
    // milliseconds in a single window (direct's own read 1.6 and 4.6 ms in two runs 13 min apart on
    // 29 Nov), and "added p99" is the median over rounds of the target's p99 less direct's.
    latencyRounds: smoke ? rounds : Math.max(rounds, 3),
    throughputSeconds: smoke ? 1 : 8,
    ttftSeconds: smoke ? 2 : 8,
    // V8 still compiles a platform's hot code 10–20 s into a load (TurboFan on its helper threads: ~0.1
    // ms of CPU a call in embedded mode, bench/ANALYSIS.md H61); windows measured before that count the
    // compiler as CPU per call. Every target gets the same warm-up.
    warmupSeconds: warmupSeconds ?? (smoke ? 1 : 30),
    // The bench's broker starts with the run and compiles for minutes; a deployment's has long finished
    // (bench/lib/broker-warmup.mjs). Most runs end well before the limit.
    brokerWarmupSeconds: brokerWarmup !== undefined ? Number(brokerWarmup) : smoke ? 0 : 180,
    ladders: smoke
      ? [
          [0, [16]],
          [20, [8]],
        ]
      : // 16 and 64 are the concurrencies issue 17's throughput and CPU targets are stated at.
        [
          [0, [16, 64, 128]],
          [20, [16, 64, 128, 512]],
        ],
    billingSeconds: smoke ? 2 : 10,
    billingVus: smoke ? 4 : 64,
    burstEvents: smoke ? 200 : 50_000,
    billingUsers,
    billingPublishers,
    profileSeconds: smoke ? 2 : 15,
    // Idle RSS is read this long after start-up and seeding, once the heap has settled (as
    // bench/embedded-memory.mjs reads it): read at once it carries start-up's garbage.
    idleSettleSeconds: smoke ? 0 : 20,
  };
}
