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
 * Embedded mode runs every service in one process, each on a loopback port chosen afresh at every
 * start. The gateway's /metrics on PORT serves them all, each series with its service's label, so an
 * operator's Prometheus has one target that does not move: to a scraper on a loopback or private
 * address that reaches it directly, not through a proxy.
 */
describe('embedded mode: one /metrics on PORT for every service', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-metrics-'));
  let platform: EmbeddedPlatform | undefined;

  afterAll(async () => {
    if (platform) await killIfRunning(platform);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves relay's series and the bookkeeping worker's beside the gateway's, each family once", async () => {
    requireBuiltLauncher();
    copyPgliteTemplate(join(dataDir, 'pg', '.initdb'));
    platform = startEmbeddedPlatform(dataDir, 'embedded-metrics-root');
    const url = await platform.url;

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

    platform.child.kill('SIGTERM');
    expect(await platform.exited).toBe(0);
  });
});
