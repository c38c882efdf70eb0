/**
 * Test support, exported for the specs of the library and of the launcher (as test-database/ is for
 * libs/testing): one child process for a spec's scenarios, which it runs on request, one at a time (PGlite cannot
 * run inside Jest's sandbox: see ts-register.js). A process per scenario loaded the library, MikroORM
 * and PGlite's WASM anew every time, about 1.5 s of CPU: more than most scenarios take themselves.
 * A scenario that fails, times out or ends its process ends that process; the next one starts anew.
 * The scenarios file answers through `serveScenarios` (scenario-child.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { ScenarioReply, ScenarioRequest } from './scenario-child';

// From src/ and from dist/ alike: the same two levels below the library's folder.
const TS_REGISTER = join(__dirname, '..', '..', 'test', 'support', 'ts-register.js');
/** The end of a child's stderr kept for an error message. */
const STDERR_TAIL = 16 * 1024;

/** A scenario's process ended before it answered: by a signal (the test may have sent it), or a code. */
export class ScenarioProcessEnded extends Error {
  constructor(
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
    stderr: string,
  ) {
    super(`the scenario's process ended (${signal ?? `code ${code}`}) before it answered\n${stderr}`);
  }
}

export class ScenarioProcess {
  private child: ChildProcess | undefined;
  private stderr = '';

  constructor(
    /** The scenarios file, run with `node -r ts-register.js`. */
    private readonly file: string,
    private readonly timeoutMs = 90_000,
  ) {}

  run<T>(scenario: string, ...args: string[]): Promise<T> {
    const child = this.started();
    return new Promise<T>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        child.off('message', answered);
        child.off('exit', ended);
        outcome();
      };
      const answered = (reply: ScenarioReply) => {
        settle(() => {
          if ('result' in reply) resolve(reply.result as T);
          else {
            this.stop(child);
            reject(new Error(`${scenario}: ${reply.error}`));
          }
        });
      };
      const ended = (code: number | null, signal: NodeJS.Signals | null) =>
        settle(() => reject(new ScenarioProcessEnded(code, signal, this.stderr)));
      const timer = setTimeout(
        () =>
          settle(() => {
            this.stop(child);
            reject(new Error(`${scenario} did not answer in ${this.timeoutMs} ms\n${this.stderr}`));
          }),
        this.timeoutMs,
      );
      child.on('message', answered);
      child.once('exit', ended);
      child.send({ scenario, args } satisfies ScenarioRequest);
    });
  }

  /** Ends the process (a spec's afterAll). */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    this.stop(child);
    await exited;
  }

  private started(): ChildProcess {
    if (this.child !== undefined) return this.child;
    this.stderr = '';
    const child = fork(this.file, [], {
      execArgv: ['-r', TS_REGISTER],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_TAIL);
    });
    child.once('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    this.child = child;
    return child;
  }

  private stop(child: ChildProcess): void {
    if (this.child === child) this.child = undefined;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
