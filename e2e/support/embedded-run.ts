import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TEST_OPERATOR_ENV } from '@tollgate/testing';
import { REPO_ROOT } from './e2e-env';

export interface EmbeddedRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start`'s entry point (built by the test run) on `port` with `dataDir`, as a newcomer would start it. */
export function startEmbedded(dataDir: string, port: number, env: Record<string, string> = {}): EmbeddedRun {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'tools', 'launcher', 'dist', 'main-embedded.js')], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      ...TEST_OPERATOR_ENV,
      PORT: String(port),
      TOLLGATE_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Kills (SIGKILL) the runs still alive and waits for each to exit: a test's clean-up. */
export async function killEmbeddedRuns(runs: readonly EmbeddedRun[]): Promise<void> {
  for (const run of runs) {
    if (run.child.exitCode === null && run.child.signalCode === null) {
      run.child.kill('SIGKILL');
      await run.exited;
    }
  }
}
