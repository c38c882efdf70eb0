import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort } from '@tollgate/testing';
import { type EmbeddedRun, killEmbeddedRuns, startEmbedded } from './support/embedded-run';

jest.setTimeout(240_000);

/** The settings every start in this file uses. */
const SETTINGS = {
  TOLLGATE_ROOT_PASSWORD: 'embedded-root-password',
  GITHUB_CLIENT_ID: 'gh-client',
  GITHUB_CLIENT_SECRET: 'gh-secret',
  DISCORD_CLIENT_ID: 'discord-without-secret',
};

const ROOT_CREATED = /Root user \\?"root\\?" created/;

async function ready(run: EmbeddedRun, base: string): Promise<void> {
  await eventually(
    'the embedded platform',
    async () => {
      if (run.child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
      return (await fetch(`${base}/health/ready`)).ok ? true : undefined;
    },
    120_000,
  );
}

interface Session {
  cookie: string;
  userId: number;
}

async function signIn(base: string): Promise<Session> {
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: SETTINGS.TOLLGATE_ROOT_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const body = (await login.json()) as { data: { id: number } };
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return { cookie, userId: body.data.id };
}

async function selfStatus(base: string, session: Session): Promise<number> {
  const answer = await fetch(`${base}/api/user/self`, {
    headers: { cookie: session.cookie, 'New-Api-User': String(session.userId) },
  });
  await answer.body?.cancel();
  return answer.status;
}

/**
 * One data directory through a platform's life, so that three start-ups check it all: the first
 * start serves and stops on Ctrl-C, the restart keeps the data (and a signed-in session) and holds the lock while a second
 * platform is refused, and after kill -9 a start succeeds although the pid an old lock file names
 * is alive. The second test goes on from where the first left the platform running.
 */
describe('embedded mode (npm start)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-'));
  const runs: EmbeddedRun[] = [];
  const start = (port: number) => {
    const run = startEmbedded(dataDir, port, SETTINGS);
    runs.push(run);
    return run;
  };
  let port: number;
  let base: string;
  /** The platform the first test leaves running on the data directory. */
  let running: EmbeddedRun | undefined;

  beforeAll(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await killEmbeddedRuns(runs);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves /api/status and the web app from one process, stops on Ctrl-C, and keeps its data across a restart', async () => {
    const first = start(port);
    const status = await eventually(
      '/api/status in embedded mode',
      async () => {
        if (first.child.exitCode !== null) throw new Error(`exited early:\n${first.output()}`);
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
    expect(first.output()).toMatch(ROOT_CREATED);
    const session = await signIn(base);
    expect(await selfStatus(base, session)).toBe(200);

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    // Same data directory: the root exists already, nothing is created twice.
    const again = start(port);
    await ready(again, base);
    expect(again.output()).not.toMatch(ROOT_CREATED);
    expect(again.output()).not.toContain('No root user exists');
    // The in-memory store was saved on Ctrl-C and read back: the browser's session still holds.
    expect(again.output()).toMatch(/restored \d+ key-value entries/);
    expect(await selfStatus(base, session)).toBe(200);
    running = again;
  });

  it('refuses a second live platform on the same data directory, and starts after kill -9 even when the pid the old lock file recorded now belongs to a running process', async () => {
    if (!running) throw new Error('the first test left no platform running on the data directory');

    const second = start(await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `The data directory ${dataDir} is in use by another running Tollgate platform`,
    );

    running.child.kill('SIGKILL');
    await running.exited;
    // The former lock was a pid file in the bus directory; after a container restart its pid is
    // often some other live process: here, this test runner.
    writeFileSync(join(dataDir, 'bus', 'LOCK'), String(process.pid));

    const restarted = start(port);
    await ready(restarted, base);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  });
});
