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
  /**
   * Told when the process ends by itself after it was ready (a crash): which service, how it ended
   * and the last lines it wrote. Default: written to this process's stderr.
   */
  onUnexpectedExit?: (report: string) => void;
}

/** A start-up that failed because another program had the service's port: another port may do. */
export class PortTakenError extends Error {
  constructor(
    message: string,
    readonly port: number,
  ) {
    super(message);
    this.name = 'PortTakenError';
  }
}

/** How much of a process's output is kept for the report of its end. */
const OUTPUT_TAIL_CHARS = 4_096;

/** One start of the service's process, and what is known of it. */
interface Run {
  child: ChildProcess;
  /** The service printed its "<name> listening on" line: the port is this process's. */
  listening: boolean;
  /** The end of what it wrote (stdout and stderr), for the report of its end. */
  outputTail: string;
  ready: boolean;
  /** Ended by kill(): its end is no news. */
  stopping: boolean;
  exited: Promise<void>;
  /** Resolves once its output has been read to the end (or a second after it exited). */
  outputRead: Promise<void>;
}

/** One service running as its own Node process (apps/<name>/dist/main.js). */
export class ServiceProcess {
  private run?: Run;
  private log?: WriteStream;

  constructor(private readonly options: ServiceProcessOptions) {}

  get name(): string {
    return this.options.name;
  }

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  get pid(): number | undefined {
    return this.run?.child.pid;
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
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const run: Run = {
      child,
      listening: false,
      outputTail: '',
      ready: false,
      stopping: false,
      exited,
      // 'close' comes once its output is read to the end, unless a process it started holds a pipe open.
      outputRead: exited.then(() =>
        Promise.race([
          new Promise<void>((resolve) => child.once('close', () => resolve())),
          new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref()),
        ]),
      ),
    };
    this.run = run;
    const nice = this.options.nice ?? 0;
    // At once, so the threads its main thread starts inherit it; again when ready, for those started before.
    if (nice && child.pid) lowerProcessTreePriority(child.pid, nice);
    child.stdout?.pipe(this.log, { end: false });
    child.stderr?.pipe(this.log, { end: false });
    watchForListening(run, name);
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        run.outputTail = (run.outputTail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
      });
    }
    void run.outputRead.then(() => {
      if (run.ready && !run.stopping) this.reportUnexpectedExit(run);
    });
    await this.waitReady(run, this.options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS);
    run.ready = true;
    if (nice && child.pid) lowerProcessTreePriority(child.pid, nice);
  }

  /** Sends a signal (SIGKILL simulates a crash) and waits for the process to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<void> {
    const run = this.run;
    if (!run || run.child.exitCode !== null || run.child.signalCode !== null) return;
    run.stopping = true;
    run.child.kill(signal);
    const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
    await run.exited;
    clearTimeout(timer);
    this.log?.end();
  }

  private async waitReady(run: Run, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer yet';
    while (Date.now() < deadline) {
      const { child } = run;
      if (child.exitCode !== null || child.signalCode !== null) {
        await run.outputRead;
        const message = `${this.name} ${howItEnded(child)} during start-up; see ${this.options.logDir}/${this.name}.log`;
        if (run.outputTail.includes('EADDRINUSE')) {
          throw new PortTakenError(`${message} (port ${this.options.port} was taken)`, this.options.port);
        }
        throw new Error(message);
      }
      if (run.listening) {
        try {
          const res = await askReady(this.url, this.options.readySocketPath);
          if (res.ok) return;
          last = `${res.status} ${res.body}`;
        } catch (err) {
          last = err instanceof Error ? err.message : String(err);
        }
      } else {
        last = 'the service has not said it listens yet';
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(
      `${this.name} not ready after ${timeoutMs} ms (${last}); see ${this.options.logDir}/${this.name}.log`,
    );
  }

  private reportUnexpectedExit(run: Run): void {
    const tail = run.outputTail.trimEnd().split('\n').slice(-20).join('\n');
    const report =
      `${this.name} (pid ${run.child.pid}) ${howItEnded(run.child)} after it was ready; see ${this.options.logDir}/${this.name}.log` +
      (tail ? `\nthe last lines it wrote:\n${tail}` : '');
    const tell = this.options.onUnexpectedExit ?? ((text: string) => process.stderr.write(`${text}\n`));
    tell(report);
  }
}

/**
 * Notes the service's own "<name> listening on …" line (runMain prints it once the service has bound
 * its port). Until then an answer on the port may come from another program that took the port after
 * it was chosen, while this process still starts and will fail to bind it.
 */
function watchForListening(run: Run, name: string): void {
  const line = `${name} listening on `;
  let seen = '';
  const onData = (chunk: Buffer) => {
    // What came before is kept only as far as a line cut between two chunks needs.
    seen = seen.slice(-line.length) + chunk.toString('utf8');
    if (!seen.includes(line)) return;
    run.listening = true;
    run.child.stdout?.off('data', onData);
  };
  run.child.stdout?.on('data', onData);
}

function howItEnded(child: ChildProcess): string {
  return child.signalCode ? `was ended by ${child.signalCode}` : `exited with code ${child.exitCode}`;
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
