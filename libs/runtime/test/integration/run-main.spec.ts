import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getOverSocket } from '../support/get-over-socket';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const PROBE = join(__dirname, '..', 'fixtures', 'probe-service-main.js');
const BUILT = ['libs/runtime/dist/main.js', 'libs/runtime/dist/index.js', 'libs/platform/dist/index.js'];

interface ProbeRun {
  pid: number;
  /** Resolves once stdout has a line matching the pattern. */
  waitFor(pattern: RegExp): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; events: string[] }>;
  kill(signal: NodeJS.Signals): void;
}

/** Runs the probe service as a real process, the way the launcher runs apps/<name>/dist/main.js. */
const runProbe = (extraEnv: Record<string, string>): ProbeRun => {
  const child = spawn(process.execPath, [PROBE], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      PORT: '0',
      LOG_LEVEL: 'silent',
      TOLLGATE_INTERNAL_TOKEN_SECRET: 'run-main-probe-secret-long-enough-42',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const waiter of waiters.filter((w) => w.pattern.test(stdout))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; events: string[] }>(
    (resolve) =>
      child.once('exit', (code, signal) =>
        resolve({
          code,
          signal,
          events: stdout
            .split('\n')
            .filter((line) => line.startsWith('event: '))
            .map((line) => line.slice('event: '.length)),
        }),
      ),
  );
  return {
    pid: child.pid ?? 0,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        if (pattern.test(stdout)) return resolve();
        waiters.push({ pattern, resolve });
        void exited.then(({ code }) =>
          reject(new Error(`probe exited (${code}) before ${pattern}:\n${stdout}\n${stderr}`)),
        );
      }),
    exited,
    kill: (signal) => child.kill(signal),
  };
};

describe('runMain', () => {
  beforeAll(() => {
    const missing = BUILT.filter((file) => !existsSync(join(REPO_ROOT, file)));
    if (missing.length) {
      throw new Error(`${missing.join(', ')} missing: build first (npx tsc -b tsconfig.build.json)`);
    }
  });

  it('on SIGTERM closes the service with its Nest hooks, then the bus and kv, and exits 0', async () => {
    const probe = runProbe({});
    await probe.waitFor(/probe listening on http:\/\/127\.0\.0\.1:\d+/);
    probe.kill('SIGTERM');
    const { code, signal, events } = await probe.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(events).toEqual([
      `service loaded in ${probe.pid}`,
      'module destroyed',
      'application shut down',
      'bus closed',
      'kv closed',
    ]);
  }, 30_000);

  it('as a cluster primary loads the service only in its workers, and stops them all on SIGTERM', async () => {
    const probe = runProbe({ TOLLGATE_WORKERS: '2' });
    await probe.waitFor(/probe listening on http:\/\/127\.0\.0\.1:\d+ \(2 workers\)/);
    probe.kill('SIGTERM');
    const { code, signal, events } = await probe.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const loadedIn = events
      .filter((event) => event.startsWith('service loaded in '))
      .map((event) => Number(event.slice('service loaded in '.length)));
    expect(loadedIn).toHaveLength(2);
    expect(loadedIn).not.toContain(probe.pid);
    expect(events.filter((event) => event === 'bus closed')).toHaveLength(2);
    expect(events.filter((event) => event === 'kv closed')).toHaveLength(2);
  }, 60_000);

  describe('with LISTEN_PATH', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'run-main-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    /** Starts a probe on `socketPath` and SIGKILLs it once it listens: its socket file stays behind. */
    async function leaveStaleSocket(socketPath: string): Promise<void> {
      const dead = runProbe({ LISTEN_PATH: socketPath });
      await dead.waitFor(/probe listening on .* and unix:/);
      dead.kill('SIGKILL');
      await dead.exited;
    }

    it('serves on the socket as on its port, starting where a killed one left its socket, and removes it on SIGTERM', async () => {
      const socketPath = join(dir, 'probe.sock');
      await leaveStaleSocket(socketPath);
      expect(existsSync(socketPath)).toBe(true);

      const probe = runProbe({ LISTEN_PATH: socketPath });
      await probe.waitFor(
        new RegExp(`probe listening on http://127\\.0\\.0\\.1:\\d+ and unix:${socketPath}`),
      );

      expect(await getOverSocket(socketPath, '/health')).toMatchObject({ status: 200 });
      expect(statSync(socketPath).mode & 0o777).toBe(0o600);
      probe.kill('SIGTERM');
      expect(await probe.exited).toMatchObject({ code: 0, signal: null });
      expect(existsSync(socketPath)).toBe(false);
    }, 60_000);

    it('refuses to start on a socket another live service listens on', async () => {
      const socketPath = join(dir, 'probe.sock');
      const first = runProbe({ LISTEN_PATH: socketPath });
      await first.waitFor(/probe listening on .* and unix:/);

      const second = runProbe({ LISTEN_PATH: socketPath });

      expect(await second.exited).toMatchObject({ code: 1 });
      expect(await getOverSocket(socketPath, '/health')).toMatchObject({ status: 200 });
      first.kill('SIGTERM');
      await first.exited;
    }, 60_000);

    it('runs a cluster on one socket', async () => {
      const socketPath = join(dir, 'probe.sock');
      const probe = runProbe({ LISTEN_PATH: socketPath, TOLLGATE_WORKERS: '2' });
      await probe.waitFor(/probe listening on .* and unix:.* \(2 workers\)/);

      expect(await getOverSocket(socketPath, '/health')).toMatchObject({ status: 200 });
      probe.kill('SIGTERM');
      expect(await probe.exited).toMatchObject({ code: 0, signal: null });
      expect(existsSync(socketPath)).toBe(false);
    }, 60_000);
  });
});
