import { extname, join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { serveEventBus, type EventBus } from '@tollgate/events';
import { serveKvStore, type KvStore } from '@tollgate/kv';
import type { PgliteDatabase } from '@tollgate/persistence';
import type { Env, RunningService } from '@tollgate/runtime';
import {
  BOOKKEEPING_SERVICES,
  type BookkeepingService,
  type BookkeepingWorkerData,
  type FromBookkeeping,
  type MetricsAnswer,
  type MetricsRequest,
  type ToBookkeeping,
} from './embedded-bookkeeping-protocol';

// Beside this file, compiled (.js) or, when run from the sources through a require hook, .ts.
const WORKER = join(__dirname, `embedded-bookkeeping-worker${extname(__filename)}`);

/**
 * The worker's young generation: 24 MB, semi-spaces of at most 8 MB. V8's default lets them grow to
 * 16 MB, and the worker's start-up alone grew them and kept 32 MB resident. 12 MB (4 MB semi-spaces)
 * saved a little more but made the idle worker scavenge about once a second, +10–20 ms/s of idle CPU
 * (docs/platform.md, "Embedded mode: memory per thread").
 */
const BOOKKEEPING_YOUNG_GENERATION_MB = 24;

/** How long a scrape waits for the worker's series before it is answered without them. */
const METRICS_ANSWER_TIMEOUT_MS = 5000;

export interface BookkeepingWorker {
  /** The port each of its services will listen on (held by the worker until then). */
  readonly ports: Readonly<Record<BookkeepingService, number>>;
  /** Starts the services with these environments (each with every service's URL); resolves once all listen. */
  start(envs: Record<BookkeepingService, Env>): Promise<RunningService[]>;
  /** The metric families of its services (each series with its `service` label), read in the worker. */
  metricFamilies(): Promise<MetricsAnswer['families']>;
  /** Closes its services, then its databases, and ends the thread. */
  close(): Promise<void>;
}

export interface BookkeepingWorkerOptions {
  /** Each service's database, in the order of BOOKKEEPING_SERVICES (`prepareServiceDatabases`). */
  pgDataDirs: PgliteDatabase[];
  bus: EventBus;
  kv: KvStore;
  logLevel: string | undefined;
  otlpEndpoint: string | undefined;
}

/**
 * Starts the bookkeeping worker thread (embedded-bookkeeping-worker.ts): it opens the databases of
 * auth, billing, chat and admin on its own event loop and holds a port for each, which it reports
 * before any service starts, since services are given each other's URLs. The bus and the
 * key-value store stay this thread's (the relay's, which uses both on every call) and are served
 * to the worker over message ports.
 *
 * A failure while starting rejects with the worker's message; a worker that dies once started is
 * an uncaught error of this process, as PGlite's worker was.
 */
export async function startBookkeepingWorker({
  pgDataDirs,
  bus,
  kv,
  logLevel,
  otlpEndpoint,
}: BookkeepingWorkerOptions): Promise<BookkeepingWorker> {
  const busChannel = new MessageChannel();
  const kvChannel = new MessageChannel();
  const metricsChannel = new MessageChannel();
  const busHost = serveEventBus(bus, busChannel.port1);
  const kvHost = serveKvStore(kv, kvChannel.port1);
  const metrics = askForMetrics(metricsChannel.port1);
  const workerData: BookkeepingWorkerData = {
    pgDataDirs,
    busPort: busChannel.port2,
    kvPort: kvChannel.port2,
    metricsPort: metricsChannel.port2,
    logLevel,
    otlpEndpoint,
  };
  const worker = new Worker(WORKER, {
    workerData,
    transferList: [busChannel.port2, kvChannel.port2, metricsChannel.port2],
    // So that the bench's profiler and `ps` tell it from the main thread.
    name: 'tollgate-bookkeeping',
    resourceLimits: { maxYoungGenerationSizeMb: BOOKKEEPING_YOUNG_GENERATION_MB },
  });
  let gone = false;
  const exited = new Promise<number>((resolve) =>
    worker.once('exit', (code) => {
      gone = true;
      resolve(code);
    }),
  );
  let expectingExit = false;

  /** The worker's next report, or a rejection if it fails or exits first. */
  const report = <T extends FromBookkeeping>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: FromBookkeeping) => {
        detach();
        if ('failed' in message) {
          expectingExit = true;
          void exited.then(() => reject(new Error(message.failed)));
        } else resolve(message as T);
      };
      const onError = (error: Error) => {
        detach();
        expectingExit = true;
        void exited.then(() => reject(new Error(`the bookkeeping worker failed: ${error.message}`)));
      };
      const onExit = (code: number) => {
        detach();
        expectingExit = true;
        reject(new Error(`the bookkeeping worker exited (code ${code}) while starting`));
      };
      const detach = () => worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      worker.once('message', onMessage).once('error', onError).once('exit', onExit);
    });

  const stopBridges = async () => {
    metrics.close();
    await busHost.close();
    kvHost.close();
  };

  let held: Extract<FromBookkeeping, { held: unknown }>;
  try {
    held = await report();
  } catch (error) {
    await stopBridges();
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      expectingExit = true;
      if (gone) return stopBridges();
      const closed = report<Extract<FromBookkeeping, { closed: true }>>().catch(() => undefined);
      worker.postMessage({ close: true } satisfies ToBookkeeping);
      const answer = await closed;
      // Everything in it is closed: nothing is lost by ending a thread some library's timer still holds.
      await worker.terminate();
      await stopBridges();
      if (answer && answer.errors.length > 0)
        throw new Error(`the bookkeeping services did not close cleanly: ${answer.errors.join('; ')}`);
    })());

  void exited.then((code) => {
    if (!expectingExit) throw new Error(`the bookkeeping worker exited unexpectedly (code ${code})`);
  });

  return {
    ports: held.held,
    start: async (envs) => {
      worker.postMessage({ start: envs } satisfies ToBookkeeping);
      let started: Extract<FromBookkeeping, { started: unknown }>;
      try {
        started = await report();
      } catch (error) {
        await stopBridges();
        throw error;
      }
      return started.started.map(({ name, port, url }) => ({ name, port, url, close }));
    },
    metricFamilies: metrics.families,
    close,
  };
}

/**
 * The main thread's end of the metrics port: each call asks the worker once. An answer that does not
 * come in time (the worker busy or gone) is an empty one, so the scrape still answers.
 */
function askForMetrics(port: MessagePort): {
  families: () => Promise<MetricsAnswer['families']>;
  close: () => void;
} {
  const waiting = new Map<number, (families: MetricsAnswer['families']) => void>();
  let nextId = 0;
  port.on('message', ({ id, families }: MetricsAnswer) => waiting.get(id)?.(families));
  // Not a reason for the process to stay up.
  port.unref();
  return {
    families: () =>
      new Promise((resolve) => {
        const id = nextId++;
        const timer = setTimeout(() => answer([]), METRICS_ANSWER_TIMEOUT_MS);
        const answer = (families: MetricsAnswer['families']) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(families);
        };
        waiting.set(id, answer);
        port.postMessage({ id } satisfies MetricsRequest);
      }),
    close: () => {
      for (const answer of waiting.values()) answer([]);
      port.close();
    },
  };
}

export { BOOKKEEPING_SERVICES };
