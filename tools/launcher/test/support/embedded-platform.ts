import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
/** `npm start`'s entry point, as the build leaves it. */
export const EMBEDDED_MAIN = join(REPO_ROOT, 'tools', 'launcher', 'dist', 'main-embedded.js');

export interface EmbeddedPlatform {
  child: ChildProcess;
  /** Everything it has printed so far (stdout and stderr). */
  output: () => string;
  /** The gateway's address, once `npm start` says it is running. */
  url: Promise<string>;
  exited: Promise<number | null>;
}

/** Throws when the launcher has not been built (the specs start its dist, not its sources). */
export function requireBuiltLauncher(): void {
  if (!existsSync(EMBEDDED_MAIN)) {
    throw new Error(`${EMBEDDED_MAIN} is missing: run "node scripts/build.mjs" first`);
  }
}

/** `npm start`'s entry point on any free port (PORT=0) with its own data directory. */
export function startEmbeddedPlatform(dataDir: string, rootPassword: string): EmbeddedPlatform {
  const child = spawn(process.execPath, [EMBEDDED_MAIN], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      TOLLGATE_DATA_DIR: dataDir,
      TOLLGATE_ROOT_PASSWORD: rootPassword,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const running = /Tollgate is running on (http:\/\/\S+) /.exec(output);
      if (running) resolve(running[1]!);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then((code) => reject(new Error(`exited with ${code} before it was running:\n${output}`)));
  });
  return { child, output: () => output, url, exited };
}

/** Kills a platform a failed test left running, and waits for it to go. */
export async function killIfRunning({ child, exited }: EmbeddedPlatform): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}
