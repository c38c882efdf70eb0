#!/usr/bin/env node
// The distributed gateway against a pass-through floor (issue 17, h73): CPU per /v1 call of the real
// gateway (apps/gateway/dist) and of a minimal proxy written here, both in front of the SAME relay
// (which is in front of the fake upstream), measured in interleaved rounds over the same calls. The
// minimal proxy does only what a pass-through must: a node:http server takes the client's call and an
// undici Pool (keep-alive, one call per connection) dispatches it to relay with the client's headers
// (hop-by-hop ones dropped), the answer's status, headers and body streamed back. It uses the same lean
// handler API and arrived-body buffer as the gateway's stream-proxy.ts, so what separates the two is
// the gateway's own per-call work (request id, limits, CORS, routing, metrics, logging).
// Both sit in front of one relay so the calls are real (relay answers 200 with usage) and relay's CPU
// is a check that both fronts delivered the same calls.
//
//   export TOLLGATE_INFRA_DIR=/tmp/h73-infra; bash scripts/infra.sh up redis kafka
//   eval "$(bash scripts/infra.sh env redis kafka)"
//   node bench/micro/gateway-floor.mjs [--levels 1:3000,16:8000,64:8000] [--rounds 4] [--root DIR]
//     [--direct] [--compare DIST ...] [--strace CALLS] [--cpu-prof DIR] [--sched] [--perf CALLS] [--batch]
//   node bench/micro/gateway-floor.mjs --parse-strace FILE --backend http://127.0.0.1:<relay port>
//   node bench/micro/gateway-floor.mjs --parse-perf FILE --calls N
//
// Each window also times every call at the client: p50 per front, and the gateway's added p50 over the
// floor (what Tollgate's gateway code adds to a call's latency) and, with --direct, over relay called
// straight (the whole hop). --direct adds relay itself as a front (no proxy in front of it).
// --compare DIST (up to three times) adds another gateway (gateway-b, -c, -d), `node DIST/main.js`: a
// copy of another build's apps/gateway/dist kept inside this checkout (e.g. tmp/base/dist, ignored by
// git) so that it resolves the same node_modules, in front of the same relay, measured in the same
// interleaved windows as the others (h123).
// --strace CALLS: after the rounds, CALLS calls at c=1 through each proxy front with `strace -tt -T -yy`
// on its main thread (the event loop), each call split by that thread's system calls: in = from the
// wake-up that brought the client's request to the first write to relay; out = from the wake-up that
// brought relay's answer to the first write to the client; after = from the end of that write to the
// loop's next epoll call (JS that runs after the answer left; at c=1 it delays the next call only if
// the client's next request is already waiting). strace slows every system call: compare the fronts
// with each other, not with the untraced windows. --parse-strace reads such a file again. Every system
// call of the thread is traced; the summary adds the median bytes of each transfer and the most common
// sequences of system calls a call (h127).
// --cpu-prof DIR preloads bench/lib/cpu-profiler.preload.cjs into every proxy front and profiles the
// c=1 windows (the profiler starts before the first c=1 window; each profile is written when its front
// stops, so put c=1 last in --levels to leave the other levels out).
// --sched: each window also reads the event loop's thread from /proc (task stat, schedstat, status):
// user and system CPU, time on a CPU and time runnable but waiting for one, voluntary (slept) and
// involuntary (preempted) context switches, all a call (h127).
// --perf CALLS: after the rounds, two passes of CALLS calls at c=1 through each proxy front (A B A B)
// with `perf record -e cpu-clock -e sched:sched_switch -g` on its main thread: on-CPU µs a call in user
// space and in the kernel by system call (writev split into send, the loopback receive and the peer's
// wake-up; context switches), and the thread's switches a call: preemptions by the call they caught it
// returning from and by who took the CPU (relay, the client, other) (h127). --parse-perf reads one again.
// --batch: each proxy front also as `<name>/batch`: the same process measured in windows of its own with
// it and relay on SCHED_BATCH (chrt -a -b), which a task woken on a busy CPU does not preempt (h127).
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sendChatCalls, waitForFirstCall } from '../lib/chat-calls.mjs';
import { infrastructureFromEnv } from '../lib/infra.mjs';
import { freePort } from '../lib/net.mjs';
import { cpuTicks, nodeProcesses } from '../lib/processes.mjs';
import {
  commonServiceEnv,
  gatewayEnv,
  serviceSecrets,
  startRelayBehindGateway,
} from '../lib/standalone-services.mjs';
import { namedLog } from '../lib/log.mjs';

const HERE = fileURLToPath(import.meta.url);
const { values: args } = parseArgs({
  options: {
    root: { type: 'string', default: join(dirname(HERE), '..', '..') },
    levels: { type: 'string', default: '1:3000,16:8000,64:8000' },
    rounds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '3000' },
    serve: { type: 'string' },
    backend: { type: 'string' },
    direct: { type: 'boolean', default: false },
    compare: { type: 'string', multiple: true, default: [] },
    strace: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'parse-strace': { type: 'string' },
    'parse-perf': { type: 'string' },
    calls: { type: 'string' },
    sched: { type: 'boolean', default: false },
    perf: { type: 'string' },
    batch: { type: 'boolean', default: false },
  },
});
const ROOT = resolve(args.root);
const requireFromRoot = createRequire(join(ROOT, 'package.json'));
const CLK_TCK = 100;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const PROFILER_PRELOAD = join(dirname(HERE), '..', 'lib', 'cpu-profiler.preload.cjs');
const percentile = (xs, q) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

const PERF_FREQUENCY = 10_000;
const SECONDS_OF = (hms) => {
  const [h, m, s] = hms.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
};

if (args.serve) serveFloor(Number(args.serve), args.backend);
else if (args['parse-strace'])
  console.log(splitCalls(readFileSync(args['parse-strace'], 'utf8'), new URL(args.backend).port).summary);
else if (args['parse-perf']) console.log(await perfSplit(args['parse-perf'], Number(args.calls)));
else await main();

// ---- the floor: a pass-through proxy and nothing else

function serveFloor(port, backend) {
  const { Pool } = requireFromRoot('undici');
  const pool = new Pool(backend, { pipelining: 1 });
  const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade']);
  const server = createServer((req, res) => {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    const declared = req.headers['content-length'];
    let body = req;
    if (declared !== undefined && req.readableLength === Number(declared)) {
      body = req.read() ?? Buffer.alloc(0);
      req.resume();
    }
    pool.dispatch(
      { path: req.url, method: req.method, headers, body },
      {
        onConnect() {},
        onHeaders(statusCode, rawHeaders) {
          if (statusCode < 200) return true;
          const out = [];
          for (let i = 0; i < rawHeaders.length; i += 2) {
            const name = rawHeaders[i].toString('latin1');
            if (HOP_BY_HOP.has(name.toLowerCase())) continue;
            out.push(name, rawHeaders[i + 1].toString('latin1'));
          }
          res.writeHead(statusCode, out);
          return true;
        },
        onData(chunk) {
          return res.write(chunk);
        },
        onComplete() {
          res.end();
        },
        onError(error) {
          if (res.headersSent) res.destroy(error);
          else res.writeHead(502).end();
        },
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, '127.0.0.1', () => console.log(`gateway-floor listening on http://127.0.0.1:${port}`));
}

// ---- the run

async function main() {
  infrastructureFromEnv(['REDIS_URL', 'KAFKA_BROKERS']);
  const { KafkaEventBus } = requireFromRoot('@tollgate/events');
  const runId = `f${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const workDir = join(tmpdir(), `gwf-${runId}`);
  mkdirSync(workDir, { recursive: true });
  const log = namedLog('gateway-floor');
  const { start: startProcess, stopAll } = nodeProcesses({ logDir: workDir, cwd: ROOT });
  const secrets = serviceSecrets();
  const { serviceNodeFlags = () => [] } = requireFromRoot('@tollgate/launcher');
  const profileDir = args['cpu-prof'] ? resolve(args['cpu-prof']) : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  // The profiler's preload, in the proxy fronts only (relay's SERVICE_NAME is left out of the list).
  const profiled = profileDir
    ? {
        BENCH_CPU_PROFILE_DIR: profileDir,
        BENCH_CPU_PROFILE_SERVICES: 'gateway,floor,gateway-b,gateway-c,gateway-d',
      }
    : {};
  const frontFlags = (service) => [
    ...serviceNodeFlags(service),
    ...(profileDir && service === 'gateway' ? ['--require', PROFILER_PRELOAD] : []),
  ];
  const bus = new KafkaEventBus({ brokers: process.env.KAFKA_BROKERS.split(','), clientId: `gwf-${runId}` });
  const { Pool } = requireFromRoot('undici');
  try {
    const { relayUrl, gatewayUrl, relay, gateway, customer } = await startRelayBehindGateway({
      root: ROOT,
      requireFromRoot,
      startProcess,
      workDir,
      secrets,
      bus,
      runId,
      prefix: 'gwf',
      label: 'Gateway floor',
      nodeArgsOf: frontFlags,
      env: profiled,
    });
    const floorPort = await freePort();
    const floorUrl = `http://127.0.0.1:${floorPort}`;
    const floor = startProcess(
      'floor',
      HERE,
      ['--serve', String(floorPort), '--backend', relayUrl, '--root', ROOT],
      {
        nodeArgs: frontFlags('gateway'),
        ...profiled,
        SERVICE_NAME: 'floor',
      },
    );
    await waitForFirstCall({ url: floorUrl, customer, what: 'a call through the floor' });
    const fronts = {
      gateway: { url: gatewayUrl, pid: gateway.child.pid, proxy: true },
      floor: { url: floorUrl, pid: floor.child.pid, proxy: true },
    };
    for (const [index, dist] of args.compare.entries()) {
      const name = `gateway-${'bcd'[index]}`;
      const port = await freePort();
      const other = startProcess(name, join(resolve(dist), 'main.js'), [], {
        ...commonServiceEnv(secrets),
        ...profiled,
        nodeArgs: frontFlags('gateway'),
        ...gatewayEnv({ port, relayUrl }),
        SERVICE_NAME: name,
      });
      const url = `http://127.0.0.1:${port}`;
      await waitForFirstCall({ url, customer, what: `a call through ${name}` });
      fronts[name] = { url, pid: other.child.pid, proxy: true };
    }
    if (args.direct) fronts.relay = { url: relayUrl, pid: relay.child.pid, proxy: false };
    if (args.batch)
      for (const [name, front] of Object.entries(fronts))
        if (front.proxy) fronts[`${name}/batch`] = { ...front, batch: [front.pid, relay.child.pid] };
    const names = Object.keys(fronts);
    for (const [name, front] of Object.entries(fronts)) {
      log(`warm-up ${name}: ${args.warmup} calls at c=16`);
      await sendChatCalls({ Pool, url: front.url, customer, calls: Number(args.warmup), concurrency: 16 });
    }
    const levels = args.levels.split(',').map((level) => {
      const [concurrency, calls] = level.split(':').map(Number);
      return { concurrency, calls };
    });
    const rows = [];
    let profiling = false;
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const { concurrency, calls } of levels) {
        if (profileDir && concurrency === 1 && !profiling) {
          profiling = true;
          writeFileSync(join(profileDir, 'start'), '');
          await new Promise((r) => setTimeout(r, 200));
        }
        // Interleaved: each round runs the fronts in a rotated order (A B C, B C A, …; two fronts: A B, B A).
        const order = names.map((_, i) => names[(i + round) % names.length]);
        const pair = { round: round + 1, concurrency };
        for (const name of order) {
          const front = fronts[name];
          if (front.batch) schedulingPolicy(front.batch, 'batch');
          const latencies = [];
          const before = [cpuTicks(front.pid), cpuTicks(relay.child.pid)];
          const threadBefore = mainThreadStats(front.pid);
          const load = await sendChatCalls({ Pool, url: front.url, customer, calls, concurrency, latencies });
          const threadAfter = mainThreadStats(front.pid);
          const after = [cpuTicks(front.pid), cpuTicks(relay.child.pid)];
          if (front.batch) schedulingPolicy(front.batch, 'other');
          for (const key of Object.keys(threadAfter))
            pair[`${name}.${key}`] = (threadAfter[key] - threadBefore[key]) / calls;
          if (load.failed > 0) throw new Error(`${name}: ${load.failed} calls failed: ${load.firstFailure}`);
          pair[name] = ((after[0] - before[0]) * (1000 / CLK_TCK)) / calls;
          pair[`${name}Relay`] = ((after[1] - before[1]) * (1000 / CLK_TCK)) / calls;
          pair[`${name}Rps`] = calls / load.seconds;
          pair[`${name}P50`] = percentile(latencies, 0.5);
          pair[`${name}P99`] = percentile(latencies, 0.99);
        }
        rows.push(pair);
        log(
          `round ${pair.round} c=${concurrency}: ` +
            names
              .map(
                (n) =>
                  `${n} ${pair[n].toFixed(3)} ms` +
                  (fronts[n].proxy ? ` (relay ${pair[`${n}Relay`].toFixed(3)})` : '') +
                  ` p50 ${pair[`${n}P50`].toFixed(3)}`,
              )
              .join(', '),
        );
      }
    }
    console.log(
      'CPU ms per call, front process (relay behind it), median of rounds; pairs where gateway > floor; p50 ms at the client',
    );
    for (const { concurrency } of levels) {
      const of = rows.filter((r) => r.concurrency === concurrency);
      const m = (key) => median(of.map((r) => r[key])).toFixed(3);
      const above = of.filter((r) => r.gateway > r.floor).length;
      console.log(
        `  c=${String(concurrency).padEnd(3)} ` +
          names
            .map(
              (n) =>
                `${n} ${m(n)}` +
                (fronts[n].proxy ? ` (relay ${m(`${n}Relay`)})` : '') +
                ` ${m(`${n}Rps`)} req/s p50 ${m(`${n}P50`)} p99 ${m(`${n}P99`)}`,
            )
            .join('  ') +
          `  excess ${median(of.map((r) => r.gateway - r.floor)).toFixed(3)}  ${above}/${of.length}`,
      );
      if (args.sched)
        for (const n of names)
          console.log(
            `        ${n} main thread a call: user ${m(`${n}.userMs`)} ms, sys ${m(`${n}.sysMs`)} ms, ` +
              `on-CPU ${m(`${n}.runMs`)} ms, run-queue wait ${m(`${n}.waitMs`)} ms, ` +
              `switches ${m(`${n}.voluntary`)} voluntary / ${m(`${n}.involuntary`)} involuntary`,
          );
      const added = (n, base) => median(of.map((r) => r[`${n}P50`] - r[`${base}P50`])).toFixed(3);
      console.log(
        `        p50 added, median of per-round differences: gateway − floor ${added('gateway', 'floor')}` +
          (args.direct
            ? `, gateway − relay ${added('gateway', 'relay')}, floor − relay ${added('floor', 'relay')}`
            : '') +
          args.compare
            .map((_, index) => {
              const other = `gateway-${'bcd'[index]}`;
              const lower = of.filter((r) => r.gateway < r[other]).length;
              const cpu = median(of.map((r) => r.gateway - r[other])).toFixed(3);
              return `, gateway − ${other} ${added('gateway', other)} (CPU ${cpu}, ${lower}/${of.length} rounds gateway lower)`;
            })
            .join(''),
      );
    }
    if (args.strace) {
      const relayPort = new URL(relayUrl).port;
      for (const [name, front] of Object.entries(fronts)) {
        if (!front.proxy) continue;
        const phases = await straceCalls({
          Pool,
          front,
          customer,
          calls: Number(args.strace),
          relayPort,
          workDir,
          name,
        });
        console.log(`strace, ${name} main thread, ${phases.calls} calls at c=1: ${phases.summary}`);
      }
    }
    if (args.perf) {
      // Two passes, the fronts alternating (A B A B), each pass CALLS calls at c=1 under perf.
      const proxies = Object.entries(fronts).filter(([, front]) => front.proxy);
      const byFront = {};
      for (let pass = 0; pass < 2; pass++)
        for (const [name, front] of proxies) {
          const peers = { self: front.pid, relay: relay.child.pid, client: process.pid };
          const split = await perfCalls({
            Pool,
            front,
            customer,
            calls: Number(args.perf),
            workDir,
            name,
            pass,
            peers,
          });
          (byFront[name] ??= []).push(split);
        }
      console.log(
        `perf (cpu-clock on the main thread: on-CPU time only), µs a call at c=1, ${args.perf} calls a pass, two passes:`,
      );
      for (const [name, passes] of Object.entries(byFront))
        for (const { split, switches } of passes)
          console.log(
            `  ${name.padEnd(9)} ` +
              Object.entries(split)
                .map(([part, us]) => `${part} ${us.toFixed(1)}`)
                .join(', ') +
              `\n            switches a call: ` +
              Object.entries(switches)
                .map(([what, n]) => `${what} ${n.toFixed(2)}`)
                .join(', '),
          );
    }
  } finally {
    await bus.close().catch(() => undefined);
    await stopAll();
    rmSync(join(workDir, 'spool'), { recursive: true, force: true });
  }
}

/**
 * `calls` calls at c=1 through `front` with `perf record -e cpu-clock -g` on its main thread (a
 * software clock that only counts while the thread runs, so preemption and sleep are left out), then
 * each sample put in one part: user space; or in the kernel, by the system call it is under — writev
 * split into the sender's own work (send), the loopback receive it does for the peer (receive: the
 * packet through the peer's TCP, in the sender's softirq) and the peer's wake-up (wake: epoll callback,
 * try_to_wake_up); write, read, epoll_wait, other system calls, and kernel work under none (interrupts,
 * faults). µs a call per part.
 */
async function perfCalls({ Pool, front, customer, calls, workDir, name, pass, peers }) {
  const file = join(workDir, `perf-${name}-${pass}.data`);
  const recorder = spawn(
    'perf',
    [
      'record',
      '-e',
      'cpu-clock',
      '-e',
      'sched:sched_switch',
      '-F',
      String(PERF_FREQUENCY),
      '-g',
      '-t',
      String(front.pid),
      '-o',
      file,
    ],
    { stdio: 'ignore' },
  );
  await new Promise((r) => setTimeout(r, 1000));
  await sendChatCalls({ Pool, url: front.url, customer, calls, concurrency: 1 });
  recorder.kill('SIGINT');
  await new Promise((r) => recorder.once('exit', r));
  return perfSplit(file, calls, peers);
}

/**
 * A perfCalls file of `calls` calls → µs a call per part (cpu-clock samples), and the thread's
 * switches off the CPU a call (sched_switch): sleeps, and preemptions by where they caught it (the
 * system call it was returning from, by its libc wrapper, or an interrupt) and by who took the CPU
 * (`peers`: process ids by name; a thread of another process counts as that process).
 */
async function perfSplit(file, calls, peers = {}) {
  const script = await new Promise((resolvePromise, reject) => {
    const child = spawn('perf', ['script', '-i', file, '-F', 'event,trace,ip,sym,dso'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (text += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolvePromise(text) : reject(new Error(`perf script ${code}`)),
    );
  });
  const parts = {};
  const switches = {};
  const count = (into, key) => (into[key] = (into[key] ?? 0) + 1);
  for (const sample of script.split(/\n\s*\n/)) {
    const lines = sample.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    const frames = lines
      .map((line) => /^\s*[0-9a-f]+ (\S+?)(?:\+0x[0-9a-f]+)? \((.*)\)$/.exec(line))
      .filter(Boolean)
      .map(([, sym, dso]) => ({ sym, kernel: dso === '[kernel.kallsyms]' }));
    const switched = /sched_switch: .*prev_state=(\S+) ==> next_comm=.* next_pid=(\d+)/.exec(lines[0]);
    if (switched) {
      const [, state, nextPid] = switched;
      if (!state.startsWith('R')) {
        count(switches, 'sleep');
        continue;
      }
      count(switches, 'preempted');
      const fromSyscall = frames.some((f) => /syscall_exit|do_syscall_64/.test(f.sym));
      const userTop = frames.find((f) => !f.kernel)?.sym ?? '?';
      count(switches, `preempted at ${fromSyscall ? userTop : 'an interrupt'}`);
      count(switches, `preempted by ${peerOf(Number(nextPid), peers)}`);
      continue;
    }
    if (frames.length === 0) continue;
    count(parts, partOfSample(frames));
  }
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  const usPerCall = (n) => ((n / PERF_FREQUENCY) * 1e6) / calls;
  const split = { total: usPerCall(total) };
  for (const part of Object.keys(parts).sort()) split[part] = usPerCall(parts[part]);
  const perCall = {};
  for (const [key, n] of Object.entries(switches).sort((x, y) => y[1] - x[1]))
    if (n / calls >= 0.01) perCall[key] = n / calls;
  return { split, switches: perCall };
}

/** The name in `peers` of the process that thread `tid` belongs to ('other' when none). */
function peerOf(tid, peers) {
  let tgid = tid;
  try {
    tgid = Number(/^Tgid:\s+(\d+)/m.exec(readFileSync(`/proc/${tid}/status`, 'utf8'))[1]);
  } catch {
    // Gone already: counted as its own id.
  }
  for (const [name, pid] of Object.entries(peers))
    if (pid === tgid) return tgid === tid ? name : `${name} (thread)`;
  return tid === 0 ? 'idle' : 'other';
}

function partOfSample(frames) {
  const SYSCALL_FRAMES = [
    [/^(do_writev|__x64_sys_writev)$/, 'writev'],
    [/^(ksys_write|__x64_sys_write)$/, 'write'],
    [/^(ksys_read|__x64_sys_read)$/, 'read'],
    [/^(do_epoll_wait|__x64_sys_epoll_wait|__x64_sys_epoll_pwait)$/, 'epoll_wait'],
  ];
  const WAKE_FRAMES =
    /^(try_to_wake_up|ep_poll_callback|sock_def_readable|__wake_up_common|__wake_up_sync_key)$/;
  const RECEIVE_FRAMES =
    /^(tcp_v4_rcv|ip_rcv|__netif_receive_skb.*|process_backlog|net_rx_action|ip_local_deliver.*)$/;
  if (!frames[0].kernel) return 'user';
  // A context switch (the cost of leaving or coming back to the CPU): when the thread slept in epoll_wait,
  // or was preempted (on its way back to user space: after a system call or an interrupt), or within another call.
  if (frames.some((f) => f.sym === '__schedule')) {
    if (frames.some((f) => /epoll_wait|epoll_pwait/.test(f.sym))) return 'k:switch.sleep';
    if (frames.some((f) => /exit_to_user_mode|irqentry_exit/.test(f.sym))) return 'k:switch.preempted';
    return 'k:switch.other';
  }
  for (const frame of frames)
    for (const [pattern, call] of SYSCALL_FRAMES)
      if (pattern.test(frame.sym)) {
        if (call !== 'writev' && call !== 'write') return `k:${call}`;
        if (frames.some((f) => WAKE_FRAMES.test(f.sym))) return `k:${call}.wake`;
        if (frames.some((f) => RECEIVE_FRAMES.test(f.sym))) return `k:${call}.receive`;
        return `k:${call}.send`;
      }
  return frames.some((f) => /^(entry_SYSCALL_64|do_syscall_64)/.test(f.sym))
    ? 'k:other-syscall'
    : 'k:no-syscall';
}

/** Every thread of each process in `pids` to SCHED_BATCH or back to SCHED_OTHER (chrt). */
function schedulingPolicy(pids, policy) {
  for (const pid of pids)
    execFileSync('chrt', ['-a', policy === 'batch' ? '-b' : '-o', '-p', '0', String(pid)]);
}

/**
 * The event loop's thread (the process's main thread) from /proc: user and system CPU (ticks, as ms),
 * time on a CPU and time runnable but waiting for one (schedstat, ns, as ms), and its context switches
 * (voluntary: it slept in epoll; involuntary: it was preempted).
 */
function mainThreadStats(pid) {
  const task = `/proc/${pid}/task/${pid}`;
  const stat = readFileSync(`${task}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [runNs, waitNs] = readFileSync(`${task}/schedstat`, 'utf8').trim().split(' ').map(Number);
  const status = readFileSync(`${task}/status`, 'utf8');
  const count = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)[1]);
  return {
    userMs: Number(fields[11]) * (1000 / CLK_TCK),
    sysMs: Number(fields[12]) * (1000 / CLK_TCK),
    runMs: runNs / 1e6,
    waitMs: waitNs / 1e6,
    voluntary: count('voluntary_ctxt_switches'),
    involuntary: count('nonvoluntary_ctxt_switches'),
  };
}

/**
 * `calls` calls at c=1 through `front` with strace on its main thread (-p of the process is its main
 * thread only), then each call split by the thread's system calls into in / out / after (see the header).
 */
async function straceCalls({ Pool, front, customer, calls, relayPort, workDir, name }) {
  const file = join(workDir, `strace-${name}.txt`);
  const tracer = spawn('strace', ['-tt', '-T', '-yy', '-o', file, '-p', String(front.pid)], {
    stdio: 'ignore',
  });
  await new Promise((r) => setTimeout(r, 1000));
  await sendChatCalls({ Pool, url: front.url, customer, calls, concurrency: 1 });
  await new Promise((r) => setTimeout(r, 300));
  tracer.kill('SIGINT');
  await new Promise((r) => tracer.once('exit', r));
  return splitCalls(readFileSync(file, 'utf8'), relayPort);
}

/** strace lines → per call: ms from wake to relay write (in), from relay's answer to client write (out), after. */
export function splitCalls(text, relayPort) {
  const events = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+:\d+:\d+\.\d+) (\w+)\((.*)\) += (-?\d+).*<([\d.]+)>$/.exec(line);
    if (!m) continue;
    const [, at, call, callArgs, result, took] = m;
    const start = SECONDS_OF(at) * 1000;
    const end = start + Number(took) * 1000;
    const fd = /^\d+<TCP:\[([^\]]+)\]>/.exec(callArgs)?.[1];
    const peer = fd === undefined ? undefined : fd.includes(`:${relayPort}`) ? 'relay' : 'client';
    const blocking = call.startsWith('epoll') && !/, 0(, NULL, 8)?$/.test(callArgs);
    events.push({ call, start, end, peer, blocking, result: Number(result) });
  }
  const rows = [];
  const bytes = {};
  let wake;
  let call;
  for (const e of events) {
    if (e.call.startsWith('epoll')) {
      // The JS that ran after the answer's write, until the loop polled again (whether or not it then sleeps).
      if (call?.clientWrittenAt !== undefined && call.after === undefined)
        call.after = e.start - call.clientWrittenAt;
      if (e.result > 0) wake = e.end;
      continue;
    }
    if (
      e.call === 'read' &&
      e.peer === 'client' &&
      e.result > 0 &&
      (call === undefined || call.after !== undefined)
    ) {
      if (call !== undefined) rows.push(call);
      call = { wokeAt: wake ?? e.start, syscalls: 0 };
    }
    if (call === undefined) continue;
    call.syscalls++;
    const key = e.peer === undefined ? e.call : `${e.call}→${e.peer}`;
    call.signature = call.signature === undefined ? key : `${call.signature} ${key}`;
    if (e.peer !== undefined && e.result > 0) (bytes[key] ??= []).push(e.result);
    if (e.call !== 'read' && e.peer === 'relay' && call.in === undefined) call.in = e.start - call.wokeAt;
    if (e.call === 'read' && e.peer === 'relay' && e.result > 0 && call.answerAt === undefined)
      call.answerAt = wake ?? e.start;
    if (e.call !== 'read' && e.peer === 'client' && call.answerAt !== undefined && call.out === undefined) {
      call.out = e.start - call.answerAt;
      call.clientWrittenAt = e.end;
    }
  }
  const complete = rows.filter((r) => r.in !== undefined && r.out !== undefined && r.after !== undefined);
  const p = (key) =>
    percentile(
      complete.map((r) => r[key]),
      0.5,
    ).toFixed(3);
  const signatures = new Map();
  for (const r of complete) signatures.set(r.signature, (signatures.get(r.signature) ?? 0) + 1);
  const common = [...signatures.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([signature, n]) => `${((100 * n) / complete.length).toFixed(1)} % [${signature}]`)
    .join('; ');
  const sizes = Object.entries(bytes)
    .map(
      ([key, xs]) => `${key} ${percentile(xs, 0.5)} B (${(xs.length / complete.length).toFixed(2)} a call)`,
    )
    .join(', ');
  return {
    calls: complete.length,
    summary: complete.length
      ? `median ms in ${p('in')}, out ${p('out')}, after ${p('after')}; syscalls a call ${p('syscalls')}` +
        `\n    median bytes: ${sizes}\n    most common sequences (from the client's request to the next one): ${common}`
      : 'no complete call parsed',
  };
}
