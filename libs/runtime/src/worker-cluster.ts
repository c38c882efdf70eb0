import cluster, { type Worker } from 'node:cluster';

/** What a worker sends its primary once its service listens. */
interface WorkerReadyMessage {
  type: 'tollgate:worker-ready';
  url: string;
}

const isReadyMessage = (message: unknown): message is WorkerReadyMessage =>
  typeof message === 'object' &&
  message !== null &&
  (message as { type?: unknown }).type === 'tollgate:worker-ready';

/** A worker that keeps dying faster than this is not restarted again: the primary gives up. */
const RESTART_WINDOW_MS = 60_000;
const MAX_RESTARTS_IN_WINDOW = 5;
const STOP_TIMEOUT_MS = 15_000;

export interface ClusterPrimaryOptions {
  serviceName: string;
  workers: number;
  write?: (line: string) => void;
}

/**
 * The primary of a clustered service: forks the workers (each runs the whole service and listens on
 * the same port, which the cluster module shares), prints the service's "listening" line once every
 * worker is up, replaces a worker that dies afterwards, and on SIGINT/SIGTERM stops them all before
 * exiting. A worker that fails during start-up fails the whole service (exit 1), as a single
 * process would.
 */
export function runClusterPrimary(options: ClusterPrimaryOptions): void {
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const ready = new Set<number>();
  const restarts: number[] = [];
  let started = false;
  let stopping = false;

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (!isReadyMessage(message)) return;
      ready.add(worker.id);
      if (!started && ready.size === options.workers) {
        started = true;
        write(`${options.serviceName} listening on ${message.url} (${options.workers} workers)\n`);
      }
    });
    return worker;
  };

  const stopAll = async (code: number): Promise<never> => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            const timer = setTimeout(() => worker.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    process.exit(code);
  };

  cluster.on('exit', (worker, code, signal) => {
    ready.delete(worker.id);
    if (stopping) return;
    if (!started) {
      process.stderr.write(
        `${options.serviceName}: worker ${worker.process.pid} exited during start-up (${signal ?? code})\n`,
      );
      void stopAll(1);
      return;
    }
    const now = Date.now();
    while (restarts.length > 0 && now - restarts[0]! > RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= MAX_RESTARTS_IN_WINDOW) {
      process.stderr.write(`${options.serviceName}: workers keep dying; stopping\n`);
      void stopAll(1);
      return;
    }
    restarts.push(now);
    process.stderr.write(
      `${options.serviceName}: worker ${worker.process.pid} died (${signal ?? code}); starting another\n`,
    );
    fork();
  });

  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));
  for (let i = 0; i < options.workers; i++) fork();
}

/** In a cluster worker, tells the primary that the service listens; elsewhere does nothing. */
export function reportWorkerReady(url: string): void {
  if (cluster.isWorker && process.send) {
    const message: WorkerReadyMessage = { type: 'tollgate:worker-ready', url };
    process.send(message);
  }
}
