import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import type { Env } from '@tollgate/runtime';
import { lowerProcessTreePriority } from './process-priority';
import { DEFAULT_READY_TIMEOUT_MS } from './ready-timeout';
import { serviceNodeFlags } from './service-node-flags';

export interface ServiceProcessOptions {
  name: string;
  repoRoot: string;
  port: number;
  env: Env;
  /** Each process's stdout and stderr go to <logDir>/<name>.log. */
  logDir: string;
  readyTimeoutMs?: number;
  /** The process's nice value (every thread of it and of its descendants); 0 or unset leaves it as started. */
  nice?: number;
  /** Asks /health/ready on this Unix socket (the service's LISTEN_PATH) rather than on its port. */
  readySocketPath?: string;
}

/** One service running as its own Node process (apps/<name>/dist/main.js). */
export class ServiceProcess {
  private child?: ChildProcess;
  private log?: WriteStream;
  private exited?: Promise<void>;

  constructor(private readonly options: ServiceProcessOptions) {}

  get name(): string {
    return this.options.name;
  }

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process (with extra variables, when given) and waits until /health/ready says yes. */
  async start(extraEnv: Env = {}): Promise<void> {
    const { name, repoRoot, port, env, logDir } = this.options;
    this.log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
    const main = join(repoRoot, 'apps', name, 'dist', 'main.js');
    const child = spawn(process.execPath, [...serviceNodeFlags(name), main], {
      cwd: repoRoot,
      env: { ...process.env, ...env, ...extraEnv, SERVICE_NAME: name, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const nice = this.options.nice ?? 0;
    // At once, so the threads its main thread starts inherit it; again when ready, for those started before.
    if (nice && child.pid) lowerProcessTreePriority(child.pid, nice);
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await this.waitReady(this.options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
    if (nice && child.pid) lowerProcessTreePriority(child.pid, nice);
  }

  /** Sends a signal (SIGKILL simulates a crash) and waits for the process to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
    this.log?.end();
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(
          `${this.name} exited with code ${this.child.exitCode} during start-up; see ${this.options.logDir}/${this.name}.log`,
        );
      }
      try {
        const res = await askReady(this.url, this.options.readySocketPath);
        if (res.ok) return;
        last = `${res.status} ${res.body}`;
      } catch (err) {
        last = err instanceof Error ? err.message : String(err);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(
      `${this.name} not ready after ${timeoutMs} ms (${last}); see ${this.options.logDir}/${this.name}.log`,
    );
  }
}

/** GET /health/ready on the service's port, or on its Unix socket when given one. */
function askReady(
  url: string,
  socketPath: string | undefined,
): Promise<{ ok: boolean; status: number; body: string }> {
  return new Promise((answer, fail) => {
    const target = socketPath ? { socketPath, path: '/health/ready' } : `${url}/health/ready`;
    const req = get(target, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        answer({ ok: status >= 200 && status < 300, status, body });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    // A connection that opens and never answers must not hold the start-up past its deadline.
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
  });
}
