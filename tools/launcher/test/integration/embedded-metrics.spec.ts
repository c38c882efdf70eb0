import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyPgliteTemplate } from '@tollgate/testing';

jest.setTimeout(240_000);

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const MAIN = join(REPO_ROOT, 'tools', 'launcher', 'dist', 'main-embedded.js');

/** The lines of the series of `name` (a family's own name, or one of a histogram's _bucket/_sum/_count). */
const seriesOf = (text: string, name: string) =>
  text.split('\n').filter((line) => line.startsWith(`${name}{`));

/**
 * Embedded mode runs every service in one process, each on a loopback port chosen afresh at every
 * start. The gateway's /metrics on PORT serves them all, each series with its service's label, so an
 * operator's Prometheus has one target that does not move: to a scraper on a loopback or private
 * address that reaches it directly, not through a proxy.
 */
describe('embedded mode: one /metrics on PORT for every service', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-metrics-'));
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves relay's series and the bookkeeping worker's beside the gateway's, each family once", async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "node scripts/build.mjs" first`);
    copyPgliteTemplate(join(dataDir, 'pg', '.initdb'));
    child = spawn(process.execPath, [MAIN], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        TOLLGATE_DATA_DIR: dataDir,
        TOLLGATE_ROOT_PASSWORD: 'embedded-metrics-root',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const started = child;
    exited = new Promise((resolve) => started.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const running = /Tollgate is running on (http:\/\/\S+) /.exec(output);
        if (running) resolve(running[1]!);
      };
      started.stdout?.on('data', read);
      started.stderr?.on('data', read);
      void exited!.then((code) => reject(new Error(`exited with ${code} before it was running:\n${output}`)));
    });

    // A model call without a key: the gateway hands it to relay, which refuses it (401) and records it.
    expect((await fetch(`${url}/v1/models`)).status).toBe(401);
    const text = await (await fetch(`${url}/metrics`)).text();

    const calls = seriesOf(text, 'tollgate_http_request_duration_seconds_count');
    expect(calls).toContainEqual(
      'tollgate_http_request_duration_seconds_count{service="relay",method="GET",route="/v1/models",status="401"} 1',
    );
    const services = new Set(
      seriesOf(text, 'process_cpu_user_seconds_total').map((l) => /service="(\w+)"/.exec(l)?.[1]),
    );
    expect([...services].sort()).toEqual(['admin', 'auth', 'billing', 'chat', 'gateway', 'relay']);
    // One HELP and TYPE per family, every service's series under it.
    const types = text.split('\n').filter((line) => line.startsWith('# TYPE '));
    expect(new Set(types).size).toBe(types.length);
    expect(types).toContain('# TYPE tollgate_http_request_duration_seconds histogram');

    // A scrape a proxy forwarded (from anywhere) gets the gateway's own series only: PORT is the
    // clients' port, and the other services' tell revenue, users and channels.
    const forwarded = await (
      await fetch(`${url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } })
    ).text();
    expect(seriesOf(forwarded, 'process_cpu_user_seconds_total')).toEqual([
      expect.stringContaining('service="gateway"'),
    ]);
    expect(forwarded).not.toContain('service="billing"');

    // Relay's own /metrics, on its loopback port, still holds relay's series only.
    const relayUrl = / relay on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(relayUrl).toBeDefined();
    const relayText = await (await fetch(`${relayUrl}/metrics`)).text();
    expect(seriesOf(relayText, 'process_cpu_user_seconds_total')).toEqual([
      expect.stringContaining('service="relay"'),
    ]);

    started.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
