import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

export interface EmbeddedPlatform {
  url: string;
  dataDir: string;
  /** The last `lines` lines of the platform's output (its log) that `keep` accepts, for a failing test to show. */
  recentOutput(lines: number, keep?: (line: string) => boolean): string;
  stop(): Promise<void>;
}

/** Builds what is out of date (services, libraries and the web app), as `npm start` does. */
export function buildPlatform(): void {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build.mjs')], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

/** What the launcher prints once it serves: its gateway's address. */
const RUNNING = /Tollgate is running on http:\/\/[^\s:]+:(\d+)/;

/**
 * The whole platform in one process (embedded mode) on a free port with a fresh data directory,
 * test payments on; resolves once the launcher says it is serving. The launcher picks the port
 * (PORT=0) and holds it from the start: a port probed free here and bound later by the platform
 * could meanwhile be handed to one of the platform's own internal services (seen: EADDRINUSE).
 */
export async function startEmbeddedPlatform(
  timeoutMs = 120_000,
  extraEnv: Record<string, string> = {},
): Promise<EmbeddedPlatform> {
  let port = 0;
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-browser-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [join(REPO_ROOT, 'tools', 'launcher', 'dist', 'main-embedded.js')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        // The fake upstreams listen on loopback (TEST_OPERATOR_ENV in libs/testing; the web's tests do not import it).
        CHANNEL_BASE_URL_ALLOWED_RANGES: 'loopback',
        PORT: '0',
        TOLLGATE_DATA_DIR: dataDir,
        TOLLGATE_PAYMENT_TEST: 'true',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      let giveUp: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (giveUp = setTimeout(resolve, 10_000)))]);
      // Cleared, or it would hold Jest's process for up to 10 s after the last test.
      clearTimeout(giveUp);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`platform did not start in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const running = RUNNING.exec(output);
      if (running) {
        port = Number(running[1]);
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`platform exited with ${code}:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const recentOutput = (lines: number, keep: (line: string) => boolean = () => true) =>
    output.split('\n').filter(keep).slice(-lines).join('\n');
  return { url: `http://localhost:${port}`, dataDir, recentOutput, stop };
}
