import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort } from '@tollgate/testing';
import { type EmbeddedRun, killEmbeddedRuns, startEmbedded } from './support/embedded-run';

jest.setTimeout(240_000);

const SETTINGS = { TOLLGATE_ROOT_PASSWORD: 'bookkeeping-worker-root' };
const ROOT_CREATED = /Root user \\?"root\\?" created/;

async function serving(run: EmbeddedRun, base: string): Promise<void> {
  await eventually(
    'the embedded platform',
    async () => {
      if (run.child.exitCode !== null) throw new Error(`exited early:\n${run.output()}`);
      return (await fetch(`${base}/health/ready`)).ok && /Tollgate is running on/.test(run.output())
        ? true
        : undefined;
    },
    120_000,
  );
}

/**
 * Embedded mode runs auth, billing, chat and admin with their databases in a worker thread
 * (tools/launcher embedded-bookkeeping.ts), and everything on the main thread with
 * TOLLGATE_EMBEDDED_WORKER=0. Both read and write the same data directory.
 */
describe('embedded mode: the bookkeeping worker', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-worker-'));
  const failedDataDir = mkdtempSync(join(tmpdir(), 'tollgate-embedded-worker-failed-'));
  const runs: EmbeddedRun[] = [];
  const start = (port: number, env: Record<string, string> = {}, dir = dataDir) => {
    const run = startEmbedded(dir, port, { ...SETTINGS, ...env });
    runs.push(run);
    return run;
  };
  afterAll(async () => {
    await killEmbeddedRuns(runs);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(failedDataDir, { recursive: true, force: true });
  });

  it("fails npm start with a bookkeeping service's own message when that service cannot start", async () => {
    const failing = start(await freePort(), { PROMO_RESERVATION_MINUTES: 'soon' }, failedDataDir);
    expect(await failing.exited).toBe(1);
    expect(failing.output()).toContain('PROMO_RESERVATION_MINUTES');
  });

  it('serves from the worker with its logs on stdout, and the main-thread fallback serves the same data', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;

    const inWorker = start(port);
    await serving(inWorker, base);
    expect(inWorker.output()).toMatch(/billing on http:\/\/127\.0\.0\.1:\d+ \(bookkeeping worker\)/);
    // pino lines written by the services in the worker thread: a worker's stdout reaches the process's
    // through the main thread, after the main thread may already have said it is running.
    await eventually("the worker's log lines on stdout", async () =>
      /"service":"billing".*"msg":"billing listening"/.test(inWorker.output()) ? true : undefined,
    );
    expect(inWorker.output()).toMatch(ROOT_CREATED);
    const status = (await (await fetch(`${base}/api/status`)).json()) as { success: boolean };
    expect(status.success).toBe(true);
    inWorker.child.kill('SIGINT');
    expect(await inWorker.exited).toBe(0);

    const onMainThread = start(port, { TOLLGATE_EMBEDDED_WORKER: '0' });
    await serving(onMainThread, base);
    expect(onMainThread.output()).toMatch(/billing on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(onMainThread.output()).not.toContain('bookkeeping worker');
    // The root the worker's auth created is in the database the main thread's auth opens.
    expect(onMainThread.output()).not.toMatch(ROOT_CREATED);
    const login = await fetch(`${base}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: SETTINGS.TOLLGATE_ROOT_PASSWORD }),
    });
    expect(login.status).toBe(200);
    onMainThread.child.kill('SIGTERM');
    expect(await onMainThread.exited).toBe(0);
  });
});
