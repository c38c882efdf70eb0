import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyPgliteTemplate } from '@tollgate/testing';
import {
  killIfRunning,
  requireBuiltLauncher,
  startEmbeddedPlatform,
  type EmbeddedPlatform,
} from '../support/embedded-platform';

jest.setTimeout(240_000);

/** The lines of the series of `name` (a family's own name, or one of a histogram's _bucket/_sum/_count). */
const seriesOf = (text: string, name: string) =>
  text.split('\n').filter((line) => line.startsWith(`${name}{`));

/**
 * Two embedded platforms started at once (their ports chosen at the same time), and what one of them
 * serves on /metrics. The second check shares the first's platforms because an embedded start-up is
 * the tier's costliest step: the tests run in order on the same two platforms.
 */
describe('embedded platforms started at the same time', () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-two-platforms-'));
  const platforms: EmbeddedPlatform[] = [];
  let urls: string[] = [];

  afterAll(async () => {
    for (const platform of platforms) await killIfRunning(platform);
    rmSync(root, { recursive: true, force: true });
  });

  it('both start, each on its own ports, and both serve /api/status', async () => {
    requireBuiltLauncher();
    // Each with the launcher's initdb template already there (a copy of the integration tier's): this
    // is about ports chosen at the same time; a first start's initdb is e2e's (embedded.spec.ts starts
    // on a new data directory), at ~6 s of CPU and ~850 MB each.
    for (const name of ['a', 'b']) copyPgliteTemplate(join(root, name, 'pg', '.initdb'));
    platforms.push(
      startEmbeddedPlatform(join(root, 'a'), 'two-platforms-root'),
      startEmbeddedPlatform(join(root, 'b'), 'two-platforms-root'),
    );

    urls = await Promise.all(platforms.map((p) => p.url));
    expect(new Set(urls).size).toBe(2);
    for (const url of urls) {
      const response = await fetch(`${url}/api/status`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { success: boolean; data: { server_address: string } };
      expect(body.success).toBe(true);
      // PORT=0: the gateway's port was held before the services started, so they were told the real one.
      expect(body.data.server_address).toBe(url.replace('127.0.0.1', 'localhost'));
    }
    const internalPorts = platforms.map((p) =>
      [...p.output().matchAll(/ on http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => m[1]),
    );
    expect(new Set(internalPorts.flat()).size).toBe(12);
  });

  /**
   * Embedded mode runs every service in one process, each on a loopback port chosen afresh at every
   * start. The gateway's /metrics on PORT serves them all, each series with its service's label, so an
   * operator's Prometheus has one target that does not move: to a scraper on a loopback or private
   * address that reaches it directly, not through a proxy.
   */
  it("serves relay's series and the bookkeeping worker's beside the gateway's on one /metrics, each family once", async () => {
    const [platform] = platforms;
    const [url] = urls;
    if (!platform || !url) throw new Error('the platforms did not start (see the test before)');

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
    const relayUrl = / relay on (http:\/\/127\.0\.0\.1:\d+)/.exec(platform.output())?.[1];
    expect(relayUrl).toBeDefined();
    const relayText = await (await fetch(`${relayUrl}/metrics`)).text();
    expect(seriesOf(relayText, 'process_cpu_user_seconds_total')).toEqual([
      expect.stringContaining('service="relay"'),
    ]);
  });

  it('both stop cleanly', async () => {
    expect(platforms).toHaveLength(2);
    for (const { child } of platforms) child.kill('SIGTERM');
    expect(await Promise.all(platforms.map((p) => p.exited))).toEqual([0, 0]);
  });
});
