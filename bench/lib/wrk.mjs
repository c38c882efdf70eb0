// wrk (Debian's package, installed by scripts/wrk.sh) driving the non-streaming scenarios: a C event
// loop that costs the shared cores a fraction of what k6's JavaScript virtual users do per call.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runToEnd } from './child.mjs';
import { chatCallBody } from './chat-calls.mjs';
import { measuredLoad } from './load-window.mjs';
import { REPO_ROOT } from './workspace.mjs';

let wrkPath;

export async function resolveWrk() {
  if (!wrkPath) {
    const { stdout } = await runToEnd('bash', [join(REPO_ROOT, 'scripts', 'wrk.sh')], { timeoutMs: 600_000 });
    wrkPath = stdout.trim().split('\n').at(-1);
  }
  return wrkPath;
}

/** The package's version (wrk itself prints it only beside its usage text, exiting 1). */
export async function wrkVersion() {
  await resolveWrk();
  const { stdout } = await runToEnd('dpkg-query', ['--show', '--showformat', '${Version}', 'wrk']);
  return `wrk ${stdout.trim()} (Debian)`;
}

/**
 * One closed-loop run of bench/wrk/chat.lua over `vus` connections on one wrk thread: requests/s, error
 * share and latency percentiles (ms), and when the target names its processes, the CPU they spent per
 * call served over the same window. The same shape as k6.mjs's runChatLoad.
 */
export function runChatLoad(target, { vus, durationSeconds }) {
  return measuredLoad(target, async (dir) => {
    const summaryFile = join(dir, 'summary.json');
    const headersFile = join(dir, 'headers.txt');
    writeFileSync(
      headersFile,
      Object.entries(target.headers)
        .map(([name, value]) => `${name}: ${value}\n`)
        .join(''),
    );
    await runToEnd(
      await resolveWrk(),
      [
        '--threads',
        '1',
        '--connections',
        String(vus),
        '--duration',
        `${durationSeconds}s`,
        // k6's default: a slow call is a slow call, not an error, until a minute has passed.
        '--timeout',
        '60s',
        '--script',
        join(REPO_ROOT, 'bench', 'wrk', 'chat.lua'),
        target.url,
      ],
      {
        env: { BODY: chatCallBody(target.model), HEADERS_FILE: headersFile, SUMMARY_FILE: summaryFile },
        timeoutMs: (durationSeconds + 90) * 1000,
      },
    );
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    const { connect, read, write, status, timeout } = summary.errors;
    const failed = connect + read + write + status + timeout;
    const requests = summary.requests + connect + write + timeout;
    return {
      requests,
      served: Math.max(0, summary.requests - status - read),
      rps: summary.requests / (summary.durationUs / 1e6),
      errorRate: requests === 0 ? 0 : failed / requests,
      p50: summary.latencyUs.p50 / 1000,
      p99: summary.latencyUs.p99 / 1000,
      avg: summary.latencyUs.mean / 1000,
    };
  });
}
