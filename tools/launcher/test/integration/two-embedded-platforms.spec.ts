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

describe('embedded platforms started at the same time', () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-two-platforms-'));
  const platforms: EmbeddedPlatform[] = [];

  afterAll(async () => {
    for (const platform of platforms) await killIfRunning(platform);
    rmSync(root, { recursive: true, force: true });
  });

  it('both start, each on its own ports, both serve /api/status, and both stop cleanly', async () => {
    requireBuiltLauncher();
    // Each with the launcher's initdb template already there (a copy of the integration tier's): this
    // is about ports chosen at the same time; a first start's initdb is e2e's (embedded.spec.ts starts
    // on a new data directory), at ~6 s of CPU and ~850 MB each.
    for (const name of ['a', 'b']) copyPgliteTemplate(join(root, name, 'pg', '.initdb'));
    platforms.push(
      startEmbeddedPlatform(join(root, 'a'), 'two-platforms-root'),
      startEmbeddedPlatform(join(root, 'b'), 'two-platforms-root'),
    );

    const urls = await Promise.all(platforms.map((p) => p.url));
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

    for (const { child } of platforms) child.kill('SIGTERM');
    expect(await Promise.all(platforms.map((p) => p.exited))).toEqual([0, 0]);
  });
});
