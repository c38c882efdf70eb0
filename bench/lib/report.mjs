// bench/RESULTS.md: the tables of a run, the targets (met or missed, by how much), the CPU per call of
// every process, the machine, versions and exact commands, and the hand-written analysis
// (bench/ANALYSIS.md) of what the profile showed and what changed; sections written by hand in
// RESULTS.md itself after HAND_WRITTEN_MARKER are kept.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fmt, fmtInt } from './stats.mjs';
import { REPO_ROOT } from './workspace.mjs';

const MiB = 2 ** 20;
const table = (header, rows) =>
  [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

/** Time-to-first-token rows of a scenario; `added` is against the scenario's baseline. */
const ttftTable = (rows, addedHeader) =>
  table(
    ['target', 'streams', 'failed', 'TTFT p50 ms', 'TTFT p99 ms', addedHeader, 'added p99 ms'],
    rows.map((r) => [
      r.target,
      fmtInt(r.streams),
      fmtInt(r.failed),
      fmt(r.p50, 3),
      fmt(r.p99, 3),
      fmt(r.addedP50, 3),
      fmt(r.addedP99, 3),
    ]),
  );

const MB = 1e6;
/** Tollgate's two modes as bench targets. */
const MODES = [
  ['tollgate', 'distributed'],
  ['tollgate-embedded', 'embedded'],
];

const verdictOf = (met) => (met ? 'met' : '**missed**');

/** A row for an upper limit: value, met or missed, and by how much (under or over the limit). */
function atMost(name, mode, value, limit, { unit = 'ms', digits = 3, strict = true, text } = {}) {
  if (!Number.isFinite(value)) return [name, mode, text ?? 'not measured in this run', '—', ''];
  const met = strict ? value < limit : value <= limit;
  const gap = Math.abs(limit - value);
  const shown = text ?? `${fmt(value, digits)} ${unit}`;
  return [name, mode, shown, verdictOf(met), `${fmt(gap, digits)} ${unit} ${met ? 'to spare' : 'over'}`];
}

/** A row for a lower limit on a ratio (× Portkey). */
function atLeastTimes(name, mode, value, limit, text, unmeasured = 'not measured in this run') {
  if (!Number.isFinite(value)) return [name, mode, unmeasured, '—', ''];
  const met = value >= limit;
  return [
    name,
    mode,
    text,
    verdictOf(met),
    met
      ? `${fmt(value - limit)}× above`
      : `${fmt(limit - value)}× short (${fmt((value / limit) * 100, 0)}% of it)`,
  ];
}

const rowOf = (rows, target, extra = () => true) => rows?.find((r) => r.target === target && extra(r));
const stepOf = (results, target, latencyMs, vus) =>
  rowOf(results.throughput, target, (r) => r.latencyMs === latencyMs)?.steps?.find((s) => s.vus === vus);

/**
 * Highest RSS of a target's own processes together over the non-streaming load windows (latency and
 * throughput). The stream levels hold thousands of open streams and have their own memory target
 * (gateway + relay < 1 GB at 10,000), reported in that row.
 */
function peakLoadRss(results, target) {
  const windows = [
    rowOf(results.latency, target)?.cpu,
    ...(rowOf(results.throughput, target) ? results.throughput : [])
      .filter((r) => r.target === target)
      .flatMap((r) => r.steps ?? [])
      .map((s) => s.cpu),
  ].filter(Boolean);
  const all = windows.map((w) => w.peakRssTotal);
  return all.length ? Math.max(...all) : Number.NaN;
}

/** The targets of issue 17 (and earlier ones still kept), each with this run's value, met or missed and by how much. */
function targetRows(results) {
  const rows = [];
  for (const [target, mode] of MODES) {
    const lat = rowOf(results.latency, target);
    rows.push(atMost('added latency p50 at c=1 < 0.5 ms', mode, lat?.addedP50, 0.5));
    rows.push(atMost('added latency p99 at c=1 < 2 ms', mode, lat?.addedP99, 2));
  }
  for (const vus of [16, 64]) {
    for (const [target, mode] of MODES) {
      const step = stepOf(results, target, 0, vus);
      const portkey = stepOf(results, 'portkey', 0, vus);
      rows.push(
        atLeastTimes(
          `throughput at c=${vus} ≥ 3× Portkey (upstream 0 ms)`,
          mode,
          step?.ofPortkey,
          3,
          `${fmt(step?.ofPortkey)}× (${fmtInt(step?.rps)} against ${fmtInt(portkey?.rps)} req/s)`,
          step && !portkey ? `${fmtInt(step.rps)} req/s; Portkey not run` : undefined,
        ),
      );
    }
  }
  for (const [vus, limit] of [
    [1, 0.5],
    [64, 0.25],
  ]) {
    for (const [target, mode] of MODES) {
      const cpu = vus === 1 ? rowOf(results.latency, target)?.cpu : stepOf(results, target, 0, vus)?.cpu;
      const infra = Number.isFinite(cpu?.infraPerCall)
        ? `; with PostgreSQL, Redis and Kafka ${fmt(cpu.totalPerCall, 3)} ms${jitNote(cpu)}`
        : '';
      rows.push(
        atMost(
          `CPU per non-streaming call at c=${vus} ≤ ${limit} ms, all Tollgate processes`,
          mode,
          cpu?.ownPerCall,
          limit,
          { strict: false, text: cpu ? `${fmt(cpu.ownPerCall, 3)} ms${infra}` : undefined },
        ),
      );
    }
  }
  const idle = results.idleRss?.['tollgate-embedded'];
  const idleBytes =
    idle && typeof idle === 'object' ? Object.values(idle).reduce((a, b) => a + b, 0) : Number.NaN;
  rows.push(
    atMost('RSS idle < 400 MB', 'embedded', idleBytes / MB, 400, { unit: 'MB', digits: 0 }),
    atMost(
      'RSS under load < 600 MB (peak over the non-streaming load windows)',
      'embedded',
      peakLoadRss(results, 'tollgate-embedded') / MB,
      600,
      {
        unit: 'MB',
        digits: 0,
      },
    ),
  );
  const billing = results.billing;
  if (billing) {
    // Runs since the burst of many users report lag in seconds and billing's own drain rate; the
    // target is the paced run: events published at 20,000/s, each settled within a second.
    const { burst, paced, prefilled } = billing;
    const lagSeconds = paced?.maxLagSeconds ?? burst.maxLagSeconds ?? burst.maxLag / burst.perSecond;
    const publishedPerSecond = paced
      ? (paced.offeredPerSecond ?? paced.events / paced.publishSeconds)
      : burst.perSecond;
    const settledPerSecond = Math.max(
      burst.perSecond,
      burst.drainPerSecond ?? 0,
      prefilled?.drainPerSecond ?? 0,
    );
    // Met only where 20,000/s were offered and each was settled within a second.
    const met =
      publishedPerSecond >= 20_000 &&
      settledPerSecond >= 20_000 &&
      lagSeconds < 1 &&
      billing.underLoad.drainSeconds < 1;
    const prefilledText = prefilled?.drainPerSecond
      ? `; pre-filled (billing paused while ${fmtInt(prefilled.events)} events were published): drained at ${fmtInt(prefilled.drainPerSecond)}/s`
      : '';
    const rate = paced
      ? `paced at 20,000/s (the ${paced.publisher ? `${paced.publisher} ` : ''}publisher offered ${fmtInt(publishedPerSecond)}/s${publishedPerSecond < 20_000 ? ': the target rate was not offered' : ''}): lag up to ${fmt(lagSeconds, 1)} s; burst of ${fmtInt(burst.events)} events of ${fmtInt(burst.users)} users: ${fmtInt(burst.perSecond)} events/s, ${burst.drainPerSecond ? `backlog drained at ${fmtInt(burst.drainPerSecond)}/s` : 'no backlog'}${prefilledText}`
      : `${fmtInt(burst.perSecond)} events/s on a burst (lag up to ${fmtInt(burst.maxLag)} events ≈ ${fmt(lagSeconds, 1)} s)`;
    rows.push([
      'billing ≥ 20,000 usage events/s, lag < 1 s',
      'distributed',
      `${rate}; under Tollgate's own load drained ${fmt(billing.underLoad.drainSeconds, 2)} s after it stopped`,
      verdictOf(met),
      met
        ? `${fmtInt(settledPerSecond - 20_000)} events/s to spare`
        : `${fmt((settledPerSecond / 20_000) * 100, 0)}% of the rate; lag ${fmt(lagSeconds, 1)} s`,
    ]);
  } else {
    rows.push([
      'billing ≥ 20,000 usage events/s, lag < 1 s',
      'distributed',
      'not measured in this run',
      '—',
      '',
    ]);
  }
  for (const [target, mode] of MODES) {
    const name = '10,000 streams held, gateway + relay < 1 GB';
    const streams = results.streams?.filter((r) => r.target === target && !r.skipped) ?? [];
    if (!streams.length) {
      rows.push([name, mode, 'not measured in this run', '—', '']);
      continue;
    }
    const rss = (r) => (r.rss.gateway ?? 0) + (r.rss.relay ?? 0) + (r.rss.embedded ?? 0);
    const top = streams.filter((r) => r.held).at(-1);
    const at10k = streams.find((r) => r.concurrency === 10_000);
    const met = !!at10k?.held && rss(at10k) < 1e9;
    rows.push([
      name,
      mode,
      top
        ? `held up to ${fmtInt(top.concurrency)} streams (${mode === 'embedded' ? 'the process' : 'gateway + relay'} peak RSS ${fmt(rss(top) / MB, 0)} MB)`
        : 'no level held',
      verdictOf(met),
      met
        ? `${fmt((1e9 - rss(at10k)) / MB, 0)} MB to spare`
        : top
          ? `${fmtInt(10_000 - top.concurrency)} streams short`
          : 'no level held',
    ]);
  }
  for (const [target, mode] of MODES) {
    rows.push(atMost('added time to first token p50 < 1 ms', mode, rowOf(results.ttft, target)?.addedP50, 1));
  }
  // Earlier targets, kept.
  const ttft = rowOf(results.ttft, 'tollgate');
  if (ttft)
    rows.push(
      atMost('added time to first token p99 < 5 ms (earlier target)', 'distributed', ttft.addedP99, 5),
    );
  const chat = rowOf(results.chat, 'chat');
  if (chat)
    rows.push(
      atMost(
        'chat: added TTFT p50 < 2 ms over an API call (earlier target)',
        'distributed',
        chat.addedP50,
        2,
      ),
    );
  return rows;
}

/** "gateway 0.120 · relay (3) 0.210 · …": CPU ms per call of each process tree, its process count when over one. */
function perProcessCell(cpu) {
  return Object.entries(cpu.perCall)
    .map(([name, ms]) => {
      const processes = cpu.processes?.[name] > 1 ? ` (${cpu.processes[name]})` : '';
      const jit = cpu.jitPerCall?.[name] > 0 ? ` (JIT compiler ${fmt(cpu.jitPerCall[name], 3)})` : '';
      return `${name}${processes} ${fmt(ms, 3)}${jit}`;
    })
    .join(' · ');
}

/** What the broker's warm-up took (bench/lib/broker-warmup.mjs), for the Setup table. */
function brokerWarmupNote(warmup) {
  if (!warmup) return '';
  const steps = warmup.jitMsPerSecond.map((ms) => fmt(ms, 1)).join(', ');
  const end = warmup.quiet
    ? `until its compiler ran under ${warmup.quietMsPerSecond} ms a second`
    : `its compiler still over ${warmup.quietMsPerSecond} ms a second at the limit`;
  return `; then distributed Tollgate ${warmup.seconds} s more (10 s steps, half at 8 connections, half at 1) ${end}: the broker's JIT ${steps} ms/s by step`;
}

/** ", of it N ms Kafka's JIT compiler": what a broker still warming up spent of the infrastructure's figure. */
function jitNote(cpu) {
  const ms = Object.values(cpu?.jitPerCall ?? {}).reduce((a, b) => a + b, 0);
  return ms > 0 ? `, ${fmt(ms, 3)} of it the broker's JIT compiler` : '';
}

/** Every throughput step, ordered by upstream latency, then concurrency, then target. */
function throughputSteps(results) {
  const out = [];
  const rows = results.throughput ?? [];
  for (const latencyMs of [...new Set(rows.map((r) => r.latencyMs))]) {
    const atLatency = rows.filter((r) => r.latencyMs === latencyMs);
    const ladder = [...new Set(atLatency.flatMap((r) => (r.steps ?? []).map((s) => s.vus)))];
    for (const vus of ladder)
      for (const r of atLatency) {
        const step = r.steps?.find((s) => s.vus === vus);
        if (step) out.push({ latencyMs, vus, target: r.target, step });
      }
  }
  return out;
}

/** CPU per call by process for the latency and throughput windows. */
function cpuTable(results) {
  const rows = [];
  const push = (load, target, r) => {
    const cpu = r.cpu;
    if (!cpu) return;
    rows.push([
      load,
      target,
      fmtInt(cpu.calls),
      fmtInt(r.rps),
      fmt(cpu.ownPerCall, 3),
      fmt(cpu.infraPerCall, 3),
      Number.isFinite(cpu.infraPerCall) ? fmt(cpu.totalPerCall, 3) : '',
      perProcessCell(cpu),
      `${fmt(cpu.peakRssTotal / MiB, 0)} MiB`,
    ]);
  };
  for (const r of results.latency ?? []) push('c=1, 0 ms', r.target, r);
  for (const { latencyMs, vus, target, step } of throughputSteps(results))
    push(`c=${vus}, ${latencyMs} ms`, target, step);
  return table(
    [
      'load',
      'target',
      'calls',
      'req/s',
      "CPU ms/call, target's own processes",
      'infrastructure ms/call',
      'together',
      'per process tree, ms/call (processes)',
      'peak RSS (own)',
    ],
    rows,
  );
}

export function renderReport({ options, results, machine, versions, commands, startedAt, finishedAt }) {
  // Runs stored before --load-generator existed were driven by k6.
  const generator = options.loadGenerator ?? 'k6';
  const out = [];
  out.push('# Tollgate benchmark results', '');
  out.push(
    `Generated by \`${commands.run}\` on ${startedAt.toISOString()} (${((finishedAt - startedAt) / 60000).toFixed(1)} min).` +
      (options.smoke ? ' **Smoke run: numbers are not meaningful.**' : ''),
    '',
  );
  out.push('Load, gateways and the fake upstream share the same machine; every load is on 127.0.0.1.', '');

  out.push(
    '## Targets (issue 17)',
    '',
    table(['target', 'mode', 'this run', 'met?', 'by how much'], targetRows(results)),
    '',
    "CPU is Tollgate's own processes together (distributed: gateway, relay, auth, billing, admin, chat with their cluster workers; embedded: its one process); PostgreSQL, Redis and Kafka are reported beside them. MB = 10^6 bytes.",
    '',
  );

  if (results.latency) {
    out.push(
      `## Added latency (concurrency 1, upstream answers at once; ${generator}, medians of rounds)`,
      '',
    );
    out.push(
      table(
        [
          'target',
          'p50 ms',
          'p99 ms',
          'added p50 ms',
          'added p99 ms',
          'errors',
          'CPU ms/call',
          '+ infrastructure',
        ],
        results.latency.map((r) => [
          r.target,
          fmt(r.p50, 3),
          fmt(r.p99, 3),
          fmt(r.addedP50, 3),
          fmt(r.addedP99, 3),
          `${fmt(r.errorRate * 100)}%`,
          fmt(r.cpu?.ownPerCall, 3),
          fmt(r.cpu?.infraPerCall, 3),
        ]),
      ),
      '',
    );
  }
  if (results.throughput) {
    out.push(
      `## Throughput (non-streaming; highest req/s with p99 < 1 s and < 0.1% errors; ${generator} closed loop)`,
      '',
    );
    out.push(
      table(
        [
          'upstream latency',
          'target',
          'req/s',
          'p99 ms',
          'at concurrency',
          'rounds within limits',
          '× direct',
          '× Portkey',
        ],
        results.throughput.map((r) => [
          `${r.latencyMs} ms`,
          r.target,
          fmtInt(r.rps),
          fmt(r.p99, 1),
          fmtInt(r.concurrency),
          r.rounds === undefined ? '' : `${r.sustainedRounds} of ${r.rounds}`,
          fmt(r.ofDirect),
          fmt(r.ofPortkey),
        ]),
      ),
      '',
      'A round in which no concurrency held p99 < 1 s and < 0.1% errors counts with its fastest step; "rounds within limits" says how many held.',
      '',
      `Concurrency ladders tried: ${options.ladders.map(([l, vus]) => `${l} ms → ${vus.join(', ')}`).join('; ')}.`,
      '',
    );
    const steps = throughputSteps(results);
    if (steps.length) {
      out.push('### Every concurrency step (medians of rounds)', '');
      out.push(
        table(
          [
            'upstream latency',
            'concurrency',
            'target',
            'req/s',
            'p50 ms',
            'p99 ms',
            'errors',
            '× direct',
            '× Portkey',
            'CPU ms/call',
            '+ infrastructure',
          ],
          steps.map(({ latencyMs, vus, target, step }) => [
            `${latencyMs} ms`,
            fmtInt(vus),
            target,
            fmtInt(step.rps),
            fmt(step.p50, 2),
            fmt(step.p99, 1),
            `${fmt(step.errorRate * 100)}%`,
            fmt(step.ofDirect),
            fmt(step.ofPortkey),
            fmt(step.cpu?.ownPerCall, 3),
            fmt(step.cpu?.infraPerCall, 3),
          ]),
        ),
        '',
      );
    }
  }
  if (results.latency?.some((r) => r.cpu) || results.throughput?.some((r) => r.steps?.some((s) => s.cpu))) {
    out.push('## CPU per call, by process (from /proc, over each load window)', '');
    out.push(
      `utime + stime of every process of a target (and of the children each reaped), read from /proc/<pid>/stat right before ${generator} starts and right after it ends, divided by the calls served (${generator}'s requests less its errors); the window includes ${generator}'s start-up and shutdown, so what a target spends idle counts too. A process tree is a service's primary with its cluster workers, PostgreSQL's postmaster with its backends. Medians of rounds; peak RSS is the target's own processes together, sampled every 250 ms.`,
      '',
    );
    out.push(cpuTable(results), '');
  }
  if (results.ttft) {
    const shape = results.ttft.find((r) => r.chunks !== undefined) ?? { chunks: 64, chunkMs: 20 };
    out.push(
      `## Time to first token (one stream at a time, ${shape.chunks} chunks ${shape.chunkMs} ms apart)`,
      '',
    );
    out.push(ttftTable(results.ttft, 'added p50 ms'), '');
  }
  if (results.chat) {
    out.push(
      '## Online chat: time to first token (gateway → chat → relay), against the same call as an API client',
      '',
    );
    out.push(ttftTable(results.chat, 'added over tollgate p50 ms'), '');
  }
  if (results.streams) {
    const shaped = results.streams.some((r) => r.rampMs !== undefined);
    out.push(
      shaped
        ? '## Concurrent streams (opened over a ramp, each long enough to outlast it; held = all completed, none stalled, all open at one moment; a stall is a gap over 1 s)'
        : '## Concurrent streams (64 chunks 20 ms apart, opened together; a stall is a gap over 1 s)',
      '',
    );
    const failureCell = (r) =>
      r.failures && Object.keys(r.failures).length
        ? Object.entries(r.failures)
            .map(([reason, n]) => `${reason} ${fmtInt(n)}`)
            .join('; ')
        : '';
    const rssCell = (r) =>
      r.rss
        ? Object.entries(r.rss)
            .map(([k, v]) => `${k} ${fmt(v / MiB, 0)} MiB`)
            .join(', ')
        : '';
    out.push(
      table(
        [
          'streams',
          'target',
          'held',
          'completed',
          'failed',
          'stalled',
          'TTFT p50 ms',
          'TTFT p99 ms',
          'largest gap ms',
          'wall s',
          'peak RSS',
          ...(shaped
            ? ['shape', 'open at once', 'failures by reason', 'listen-queue overflows', 'client']
            : []),
        ],
        results.streams.map((r) =>
          r.skipped
            ? [
                fmtInt(r.concurrency),
                r.target,
                'not tried (failed a lower level)',
                '',
                '',
                '',
                '',
                '',
                '',
                '',
                '',
                ...(shaped ? ['', '', '', '', ''] : []),
              ]
            : [
                fmtInt(r.concurrency),
                r.target,
                r.held ? 'yes' : 'no',
                fmtInt(r.completed),
                fmtInt(r.failed),
                fmtInt(r.stalled),
                fmt(r.ttftP50, 1),
                fmt(r.ttftP99, 1),
                fmt(r.maxGap, 0),
                fmt(r.wallMs / 1000, 1),
                rssCell(r),
                ...(shaped
                  ? [
                      r.rampMs === undefined
                        ? ''
                        : `ramp ${fmtInt(r.rampMs)} ms, ${r.chunks} chunks ${r.chunkMs} ms apart`,
                      r.peakOpen === undefined ? '' : fmtInt(r.peakOpen),
                      failureCell(r),
                      r.listenQueueOverflows === undefined ? '' : fmtInt(r.listenQueueOverflows),
                      r.client ?? '',
                    ]
                  : []),
              ],
        ),
      ),
      '',
    );
  }
  if (results.idleRss) {
    const mib = (entries) => entries.map(([k, v]) => `${k} ${fmt(v / MiB, 0)} MiB`).join(', ');
    // Runs before the embedded target was added stored one flat map of processes.
    const byTarget = Object.entries(results.idleRss).map(([target, v]) =>
      typeof v === 'number'
        ? mib([[target, v]])
        : Object.keys(v).length === 1
          ? `${target}: ${mib(Object.entries(v))}`
          : `${target}: ${mib(Object.entries(v))} (together ${fmt(Object.values(v).reduce((a, b) => a + b, 0) / MiB, 0)} MiB)`,
    );
    const when = results.idleSettleSeconds
      ? `${results.idleSettleSeconds} s after start-up and seeding`
      : 'right after start-up and seeding';
    out.push(`Idle RSS ${when}: ${byTarget.join('; ')}.`, '');
  }
  if (results.billing) {
    const { underLoad: u, burst: b } = results.billing;
    out.push(
      '## Billing settlement (usage.recorded → usage_logs + ledger; consumer group billing.usage)',
      '',
    );
    out.push(
      table(
        ['measure', 'value'],
        [
          ['under Tollgate load: requests served', fmtInt(u.served)],
          ['under load: events settled (after drain)', fmtInt(u.settled)],
          ['under load: settled per second while loaded', fmtInt(u.settledPerSecondDuringLoad)],
          ['under load: largest consumer lag (events)', fmtInt(u.maxLag)],
          ['under load: drained after the load stopped (s)', fmt(u.drainSeconds, 2)],
          [
            `burst: ${fmtInt(b.events)} events${b.users ? ` of ${fmtInt(b.users)} users over ${b.partitions} partitions` : ''} published straight to the topic, settled`,
            fmtInt(b.settled),
          ],
          ['burst: publishing took (s)', fmt(b.publishSeconds, 2)],
          ['burst: all settled after (s)', fmt(b.seconds, 2)],
          ['burst: settled per second', fmtInt(b.perSecond)],
          ['burst: largest consumer lag (events)', fmtInt(b.maxLag)],
          ...burstDetails('burst', b),
          ...(results.billing.paced ? burstDetails('paced at 20,000/s', results.billing.paced) : []),
          ...(results.billing.prefilled
            ? burstDetails('pre-filled (billing paused while publishing)', results.billing.prefilled)
            : []),
        ],
      ),
      '',
    );
  }
  if (results.profile) {
    const p = results.profile;
    out.push(
      `## CPU profile (V8 sampling profiler as --cpu-prof uses, one worker each, ${generator} c=${p.vus} for ${p.durationSeconds} s: ${fmtInt(p.rps)} req/s)`,
      '',
    );
    for (const [service, s] of Object.entries(p.services)) {
      out.push(`### ${service}: busy ${fmt(s.totalMs / 1000, 1)} s of CPU`, '');
      out.push(
        table(
          ['package', 'self ms', 'share'],
          s.packages.slice(0, 10).map((x) => [x.name, fmt(x.selfMs, 0), `${fmt(x.share * 100, 1)}%`]),
        ),
        '',
      );
      out.push(
        table(
          ['function', 'self ms', 'share'],
          s.functions
            .slice(0, 12)
            .map((x) => [`\`${x.name}\``, fmt(x.selfMs, 0), `${fmt(x.share * 100, 1)}%`]),
        ),
        '',
      );
    }
  }
  if (results.errors?.length) {
    out.push(
      '## Scenarios that broke',
      '',
      ...results.errors.map((e) => `- ${e.scenario}: ${e.message}`),
      '',
    );
  }

  out.push('## Setup', '');
  out.push(
    table(
      ['setting', 'value'],
      [
        [
          'machine',
          `${machine.nproc} cores (nproc), ${machine.cpu}, ${fmt(machine.memoryGiB, 1)} GiB RAM, Linux ${machine.kernel}`,
        ],
        [
          'load average (1, 5, 15 min)',
          `at start ${results.loadAverage?.atStart?.join(', ')}; at end ${results.loadAverage?.atEnd?.join(', ')} (everything else running on the machine competes with every target)`,
        ],
        [
          'Tollgate (target `tollgate`)',
          `distributed mode, every service its own process; gateway and relay with TOLLGATE_WORKERS_GATEWAY=TOLLGATE_WORKERS_RELAY=${options.workers} (Node cluster); LOG_LEVEL=warn; GATEWAY_RATE_LIMIT_PER_MINUTE=0; GATEWAY_BACKEND_CONNECTIONS=RELAY_UPSTREAM_CONNECTIONS=12000`,
        ],
        [
          'Tollgate (target `tollgate-embedded`)',
          options.embedded
            ? 'embedded mode: `startEmbedded` of tools/launcher in one process (PGlite databases, in-process bus, in-memory store) on a fresh data directory, seeded through its HTTP API; same LOG_LEVEL, rate limit and connection settings'
            : 'not run',
        ],
        [
          'fake upstream',
          'libs/testing fake upstream, own process, 64 chunks 20 ms apart for streams, 16 completion tokens for non-streaming calls (max_tokens 16)',
        ],
        [
          'warm-up',
          `${options.warmupSeconds ?? '?'} s a target at 8 connections${brokerWarmupNote(results.brokerWarmup)}`,
        ],
        [
          'rounds',
          `${options.rounds}${options.latencyRounds && options.latencyRounds !== options.rounds ? ` (latency: ${options.latencyRounds})` : ''}, targets in a different order each round; medians reported`,
        ],
        ...Object.entries(versions).map(([k, v]) => [k, String(v)]),
      ],
    ),
    '',
  );
  out.push('## Commands', '', '```sh', ...commands.lines, '```', '');

  const analysis = join(REPO_ROOT, 'bench', 'ANALYSIS.md');
  if (existsSync(analysis)) out.push(readFileSync(analysis, 'utf8').trim(), '');
  return out.join('\n');
}

/**
 * Everything after this line in RESULTS.md is written by hand (e.g. "Event consumers", from
 * bench/consumer-transport.mjs) and kept as it is when a run rewrites the file.
 */
export const HAND_WRITTEN_MARKER =
  '<!-- Hand-written sections below this line: `npm run bench` keeps them when it rewrites this file. -->';

/** The hand-written tail of a report (from the marker on), or the marker alone for a new file. */
function handWrittenTail(file) {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = old.indexOf(HAND_WRITTEN_MARKER);
  return at < 0 ? `${HAND_WRITTEN_MARKER}\n` : old.slice(at);
}

/** Writes the report (keeping the file's hand-written sections) and, beside it, the run it was rendered from (for `--render`). */
export function writeReport(file, text, run) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${text.trimEnd()}\n\n${handWrittenTail(file)}`);
  writeFileSync(file.replace(/\.md$/, '.json'), JSON.stringify(run, null, 2));
}

/** Rows the many-user bursts (since 26 Nov) add: lag in seconds, drain rate, CPU per event. */
function burstDetails(label, run) {
  if (run.maxLagSeconds === undefined) return [];
  return [
    ...(label === 'burst'
      ? []
      : [
          [`${label}: published in (s)`, fmt(run.publishSeconds, 2)],
          [`${label}: all settled after (s)`, fmt(run.seconds, 2)],
        ]),
    ...(run.offeredPerSecond === undefined
      ? []
      : [
          [
            `${label}: offered by ${fmtInt(run.publishers ?? 1)}${run.publisher ? ` ${run.publisher}` : ''} publisher(s) (events/s)`,
            fmtInt(run.offeredPerSecond),
          ],
        ]),
    // A pre-filled topic's events all wait on purpose: their lag says nothing.
    ...(run.prefill
      ? []
      : [[`${label}: oldest event not yet settled, at most (s)`, fmt(run.maxLagSeconds, 2)]]),
    [
      `${label}: backlog when publishing ended, settled at (events/s)`,
      run.drainPerSecond
        ? `${fmtInt(run.backlogAfterPublishing)} events at ${fmtInt(run.drainPerSecond)}/s`
        : 'none',
    ],
    [
      `${label}: CPU per event, billing / its PostgreSQL database / the whole PostgreSQL server (ms)`,
      `${fmt(run.cpuMsPerEvent.billing, 3)} / ${fmt(run.cpuMsPerEvent.postgres, 3)} / ${fmt(run.cpuMsPerEvent.postgresServer, 3)}`,
    ],
    ...(run.usageLogRows === undefined || run.usageLogRows === run.settled
      ? []
      : [
          [
            `${label}: **usage-log rows written (another consumer of billing.usage took partitions: the phase's figures are off)**`,
            `${fmtInt(run.usageLogRows)} of ${fmtInt(run.settled)}`,
          ],
        ]),
    ...(run.database === undefined
      ? []
      : [
          [
            `${label}: billing's database at the start (usage-log rows, MB), its blocks hit / read per event`,
            `${fmtInt(run.database.usageLogRows)} rows, ${fmtInt(run.database.bytes / 1e6)} MB; ${fmt(run.database.blocksHitPerEvent, 1)} / ${fmt(run.database.blocksReadPerEvent, 2)}`,
          ],
        ]),
    ...(run.cpuMsPerEvent.kafka === undefined
      ? []
      : [
          [
            `${label}: CPU per event of Kafka, of it its JIT compiler (ms)`,
            `${fmt(run.cpuMsPerEvent.kafka, 3)}, ${fmt(run.cpuMsPerEvent.kafkaJit, 3)}`,
          ],
        ]),
    ...(run.cpuMsPerEvent.publisher === undefined
      ? []
      : [
          [
            `${label}: CPU per event of the ${run.publisher} publisher (ms)`,
            fmt(run.cpuMsPerEvent.publisher, 4),
          ],
        ]),
  ];
}
