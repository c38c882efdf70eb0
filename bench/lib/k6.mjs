// k6 (pinned, built by scripts/k6.sh) driving the non-streaming scenarios.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runToEnd } from './child.mjs';
import { measuredLoad } from './load-window.mjs';
import { REPO_ROOT } from './workspace.mjs';

let k6Path;

export async function resolveK6() {
  if (!k6Path) {
    const { stdout } = await runToEnd('bash', [join(REPO_ROOT, 'scripts', 'k6.sh')], {
      timeoutMs: 1_800_000,
    });
    k6Path = stdout.trim().split('\n').at(-1);
  }
  return k6Path;
}

export async function k6Version() {
  const { stdout } = await runToEnd(await resolveK6(), ['version'], { env: { K6_NO_USAGE_REPORT: 'true' } });
  return stdout.trim().split('\n')[0];
}

/**
 * One closed-loop run of bench/k6/chat.js: requests/s, error share and latency percentiles (ms), and
 * when the target names its processes, the CPU they spent per call served over the same window.
 */
export function runChatLoad(target, { vus, durationSeconds }) {
  return measuredLoad(target, async (dir) => {
    const summaryFile = join(dir, 'summary.json');
    await runToEnd(
      await resolveK6(),
      ['run', '--quiet', '--no-color', '--no-thresholds', join(REPO_ROOT, 'bench', 'k6', 'chat.js')],
      {
        env: {
          K6_NO_USAGE_REPORT: 'true',
          TARGET_URL: target.url,
          HEADERS: JSON.stringify(target.headers),
          MODEL: target.model,
          VUS: String(vus),
          DURATION: `${durationSeconds}s`,
          SUMMARY_FILE: summaryFile,
        },
        timeoutMs: (durationSeconds + 60) * 1000,
      },
    );
    const metrics = JSON.parse(readFileSync(summaryFile, 'utf8'));
    const duration = metrics.http_req_duration.values;
    const requests = metrics.http_reqs.values.count;
    const errorRate = metrics.http_req_failed?.values.rate ?? 0;
    return {
      requests,
      served: Math.round(requests * (1 - errorRate)),
      rps: metrics.http_reqs.values.rate,
      errorRate,
      p50: duration['p(50)'],
      p99: duration['p(99)'],
      avg: duration.avg,
    };
  });
}
