/**
 * The worker thread behind `startPgliteServers` (pglite-server.ts): one PGlite per data directory,
 * each behind its own loopback socket server, all on this thread's event loop, so that PostgreSQL's
 * WASM runs beside the main thread's, not on it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  pgliteErrorMessage,
  startPgliteInstances,
  stopPgliteInstance,
  type PgliteInstance,
} from './pglite-instances';

export interface PgliteWorkerData {
  dataDirs: readonly string[];
}
/** Stop the instance at this index (its socket server, then PGlite itself). */
export interface CloseRequest {
  close: number;
}
export type WorkerReport =
  /** Every instance is up; its port, in the order of `dataDirs`. */
  | { started: number[] }
  /** One failed to start; those started before it are closed and the worker is exiting. */
  | { failed: string }
  | { closed: number; error?: string };

async function main(port: NonNullable<typeof parentPort>, { dataDirs }: PgliteWorkerData): Promise<void> {
  const report = (value: WorkerReport) => port.postMessage(value);
  let instances: PgliteInstance[];
  try {
    instances = await startPgliteInstances(dataDirs);
  } catch (error) {
    report({ failed: pgliteErrorMessage(error) });
    port.close();
    return;
  }
  let open = instances.length;
  const closing = new Set<number>();
  port.on('message', ({ close: index }: CloseRequest) => {
    const instance = instances[index];
    if (instance === undefined || closing.has(index)) return;
    closing.add(index);
    void stopPgliteInstance(instance)
      .then(
        () => report({ closed: index }),
        (error: unknown) => report({ closed: index, error: pgliteErrorMessage(error) }),
      )
      .finally(() => {
        // With nothing left to serve the port is closed and the thread ends: it never holds the process.
        if (--open === 0) port.close();
      });
  });
  report({ started: instances.map((instance) => Number(new URL(instance.url).port)) });
}

if (parentPort === null) throw new Error('pglite-worker runs as a worker thread (startPgliteServers)');
void main(parentPort, workerData as PgliteWorkerData);
