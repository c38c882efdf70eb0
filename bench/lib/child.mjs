// Child processes of the harness: started with a readiness line to wait for, always stopped at the end.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

const running = new Set();

/**
 * Spawns a process and resolves once a stdout line matches `ready` (its match is returned), or
 * rejects when the process exits first or `timeoutMs` passes. Output also goes to `logFile`.
 * The harness's environment is passed on unless `inheritEnv` is false (then only `env`).
 */
export function startChild({
  name,
  command,
  args,
  env,
  inheritEnv = true,
  cwd,
  ready,
  logFile,
  timeoutMs = 120_000,
}) {
  const child = spawn(command, args, {
    cwd,
    env: inheritEnv ? { ...process.env, ...env } : env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => fail(new Error(`${name} not ready after ${timeoutMs} ms; see ${logFile}`)),
      timeoutMs,
    );
    const onData = (data) => {
      buffered += data.toString();
      const match = ready.exec(buffered);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.off('exit', onExit);
        resolve({ child, match, stop: (signal) => stopChild(child, signal) });
      }
    };
    const onExit = (code, signal) =>
      fail(new Error(`${name} exited (${signal ?? code}) before it was ready; see ${logFile}`));
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

export function stopChild(child, signal = 'SIGTERM', timeoutMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Runs a process to its end and returns its stdout; rejects on a non-zero exit with its stderr. */
export function runToEnd(command, args, { env, cwd, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      if (code === 0) resolve({ stdout: out, stderr: err });
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code}): ${err.slice(-2000)}`));
    });
  });
}

/** Last resort on an unexpected exit: nothing the harness started may outlive it. */
export function killAllChildren() {
  for (const child of running) child.kill('SIGKILL');
}
