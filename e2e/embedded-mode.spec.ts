import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort } from '@tollgate/testing';
import { startEmbedded, type EmbeddedRun } from './support/embedded-run';

jest.setTimeout(240_000);

/** The settings every start in this file uses. */
const SETTINGS = {
  TOLLGATE_ROOT_PASSWORD: 'embedded-root-password',
  GITHUB_CLIENT_ID: 'gh-client',
  GITHUB_CLIENT_SECRET: 'gh-secret',
  DISCORD_CLIENT_ID: 'discord-without-secret',
};

describe('embedded mode (npm start)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-'));
  let run: EmbeddedRun | undefined;

  afterAll(async () => {
    if (run && run.child.exitCode === null) {
      run.child.kill('SIGKILL');
      await run.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves /api/status and the web app from one process, stops on Ctrl-C, and keeps its data across a restart', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    run = startEmbedded(dataDir, port, SETTINGS);
    const current = run;
    const status = await eventually(
      '/api/status in embedded mode',
      async () => {
        if (current.child.exitCode !== null) throw new Error(`exited early:\n${current.output()}`);
        const res = await fetch(`${base}/api/status`);
        return res.ok
          ? ((await res.json()) as { success: boolean; data: Record<string, unknown> })
          : undefined;
      },
      120_000,
    );
    expect(status.success).toBe(true);
    expect(status.data).toMatchObject({
      github_oauth: true,
      github_client_id: 'gh-client',
      google_oauth: false,
      discord_oauth: false,
      discord_client_id: 'discord-without-secret',
      server_address: `http://localhost:${port}`,
      chat_models: [],
    });
    expect(status.data).toHaveProperty('discord_redirect_uri');
    expect(status.data).toHaveProperty('google_client_id');

    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<div id="root">');
    expect((await fetch(`${base}/dashboard`)).headers.get('content-type')).toContain('text/html');
    const rootCreated = /Root user \\?"root\\?" created/;
    expect(run.output()).toMatch(rootCreated);

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);

    // Same data directory: the root exists already, nothing is created twice.
    run = startEmbedded(dataDir, port, SETTINGS);
    const again = run;
    await eventually(
      'the restarted platform',
      async () => {
        if (again.child.exitCode !== null) throw new Error(`exited early:\n${again.output()}`);
        return (await fetch(`${base}/health/ready`)).ok ? true : undefined;
      },
      120_000,
    );
    expect(run.output()).not.toMatch(rootCreated);
    expect(run.output()).not.toContain('No root user exists');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });
});
