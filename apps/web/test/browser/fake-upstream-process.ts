import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './embedded-platform';

export interface FakeUpstreamProcess {
  url: string;
  stop(): Promise<void>;
}

/** `npm run fake-upstream` in a process of its own (the web project depends on shared libraries only). */
export function startFakeUpstreamProcess(args: string[]): Promise<FakeUpstreamProcess> {
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'scripts', 'fake-upstream.mjs'), '--port', '0', ...args],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the fake upstream did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /fake-upstream listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the fake upstream exited with ${code}:\n${output}`));
    });
  });
}
