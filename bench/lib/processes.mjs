// The processes of a stand-alone bench (bench/hot-path-cpu.mjs, bench/micro/*): Node programs started
// with their output in a log file, optionally awaited until a stdout line matches, all stopped together;
// a readiness poll; CPU ticks of one process from /proc.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Node programs started together and stopped together. Each one's stdout and stderr go to
 * `<logDir>/<name>.log`; it runs in `cwd` with the bench's environment plus its own.
 */
export function nodeProcesses({ logDir, cwd }) {
  const children = [];
  return {
    /**
     * Starts `node [...nodeArgs] file ...argv`. Without `ready` returns `{ child, exited }` at once;
     * with it, a promise of `{ child, exited, match }` once stdout matches `ready`, rejected if the
     * process exits first. `ipc` opens an IPC channel (`child.send`, 'message'); `cwd` overrides the
     * group's.
     */
    start(name, file, argv = [], { nodeArgs = [], ipc = false, cwd: ownCwd = cwd, ...env } = {}, ready) {
      const out = createWriteStream(join(logDir, `${name}.log`));
      const child = spawn(process.execPath, [...nodeArgs, file, ...argv], {
        cwd: ownCwd,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])],
      });
      children.push(child);
      child.stdout.pipe(out, { end: false });
      child.stderr.pipe(out, { end: false });
      const exited = new Promise((r) => child.once('exit', r));
      if (!ready) return { child, exited };
      return new Promise((resolvePromise, reject) => {
        let seen = '';
        child.stdout.on('data', (chunk) => {
          seen += chunk;
          const match = ready.exec(seen);
          if (match) resolvePromise({ child, exited, match });
        });
        child.once('exit', (code) =>
          reject(new Error(`${name} exited (${code}); see ${logDir}/${name}.log`)),
        );
      });
    },

    /** SIGTERM to every running one, SIGKILL to any still running 15 s later. */
    async stopAll() {
      await Promise.all(
        children
          .filter((c) => c.exitCode === null && c.signalCode === null)
          .map(
            (c) =>
              new Promise((r) => {
                const timer = setTimeout(() => c.kill('SIGKILL'), 15_000);
                c.once('exit', () => {
                  clearTimeout(timer);
                  r();
                });
                c.kill('SIGTERM');
              }),
          ),
      );
    },
  };
}

/** Polls `probe` every 200 ms until it returns true; throws with its last answer after `timeoutMs`. */
export async function waitFor(what, probe, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const result = await probe();
      if (result === true) return;
      last = String(result);
    } catch (error) {
      last = error.message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms: ${last}`);
}

/**
 * utime + stime of a process (all its threads), plus cutime + cstime (children it has waited for), in
 * clock ticks.
 */
export function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the command: state is [0], utime [11], stime [12], cutime [13], cstime [14].
  return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
}
