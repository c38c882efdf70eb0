/**
 * The bookkeeping worker thread of embedded mode (embedded-bookkeeping.ts): auth, billing, chat and
 * admin with their PGlite databases, all on this thread's event loop, so that a transaction of
 * theirs never runs in front of a call on the main thread, and their database round trips stay in
 * this thread. The platform's one bus and one key-value store are the main thread's, reached
 * through the bridges.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startAdmin } from '@tollgate/admin';
import { startAuth } from '@tollgate/auth';
import { startBilling } from '@tollgate/billing';
import { startChat } from '@tollgate/chat';
import { BridgedEventBus } from '@tollgate/events';
import { BridgedKvStore } from '@tollgate/kv';
import type { PgliteServer } from '@tollgate/persistence';
import { MetricsService } from '@tollgate/platform';
import {
  busLoggerFor,
  holdPorts,
  releaseHeldPorts,
  startTelemetry,
  type RunningService,
  type StartService,
} from '@tollgate/runtime';
import {
  BOOKKEEPING_SERVICES,
  type BookkeepingService,
  type BookkeepingWorkerData,
  type FromBookkeeping,
  type MetricsAnswer,
  type MetricsRequest,
  type ToBookkeeping,
} from './embedded-bookkeeping-protocol';
import { lowerThisThreadPriority } from './thread-priority';

/**
 * This thread's nice value. Its work (settling usage, publishing balances) can wait a few ms; a call
 * on the main thread cannot. On two cores the load, the upstream, the main thread and this one take
 * turns, and at the same priority the scheduler lets a batch of this thread's run in front of a call.
 * bench/embedded-memory.mjs, six interleaved pairs (bench/ANALYSIS.md, "The bookkeeping worker at
 * nice 10"): p99 at 1 VU lower in 5 of 6 (median 7.2 → 5.0 ms), req/s at 64 VUs higher in 4 of 6.
 */
const BOOKKEEPING_NICE = 10;

const STARTERS: Record<BookkeepingService, StartService> = {
  auth: startAuth,
  billing: startBilling,
  chat: startChat,
  admin: startAdmin,
};

async function main(port: NonNullable<typeof parentPort>, data: BookkeepingWorkerData): Promise<void> {
  const report = (message: FromBookkeeping) => port.postMessage(message);
  lowerThisThreadPriority(BOOKKEEPING_NICE);
  // OpenTelemetry's globals are per thread: this thread starts its own SDK (when one exports at all),
  // under the platform's one service name, beside the main thread's.
  const telemetry = await startTelemetry({
    serviceName: 'tollgate-embedded',
    otlpEndpoint: data.otlpEndpoint,
  });
  const bus = new BridgedEventBus(data.busPort, {
    logger: busLoggerFor('embedded-bookkeeping', data.logLevel),
  });
  const kv = new BridgedKvStore(data.kvPort);
  const databases: PgliteServer[] = [];
  const services: RunningService[] = [];
  let ports: number[] = [];

  const close = async (): Promise<string[]> => {
    const errors: string[] = [];
    const attempt = (step: Promise<void>) =>
      step.catch(
        (error: unknown) => void errors.push(error instanceof Error ? error.message : String(error)),
      );
    for (const service of [...services].reverse()) await attempt(service.close());
    for (const db of databases) await attempt(db.close());
    await attempt(bus.close());
    await attempt(kv.close());
    await attempt(telemetry.shutdown());
    await attempt(releaseHeldPorts(ports));
    return errors;
  };

  try {
    // Imported here as in embedded-databases.ts (the lint rule wants one way per project): this thread
    // loads the library in any case.
    const { startPgliteServers } = await import('@tollgate/persistence');
    databases.push(...(await startPgliteServers(data.pgDataDirs, { thread: 'this' })));
    // Held by this thread, which is the one that listens on them (a socket cannot change threads).
    ports = await holdPorts(BOOKKEEPING_SERVICES.length);
    report({
      held: Object.fromEntries(BOOKKEEPING_SERVICES.map((name, i) => [name, ports[i]!])) as Record<
        BookkeepingService,
        number
      >,
    });
    const { start: envs } = await nextMessage<Extract<ToBookkeeping, { start: unknown }>>(port);
    for (const [index, name] of BOOKKEEPING_SERVICES.entries()) {
      const service = await STARTERS[name](
        { ...envs[name], DATABASE_URL: databases[index]!.url },
        { bus, kv, embedded: true },
      );
      services.push(service);
    }
  } catch (error) {
    await close();
    report({ failed: error instanceof Error ? error.message : String(error) });
    port.close();
    return;
  }
  report({ started: services.map(({ name, port: servicePort, url }) => ({ name, port: servicePort, url })) });
  serveMetrics(
    data.metricsPort,
    services.map((service) => MetricsService.familiesOfServiceOn(service.port)),
  );
  await nextMessage<Extract<ToBookkeeping, { close: true }>>(port);
  data.metricsPort.close();
  report({ closed: true, errors: await close() });
  port.close();
}

/** Answers each scrape the main thread forwards with the families of every service of this thread. */
function serveMetrics(
  port: BookkeepingWorkerData['metricsPort'],
  sources: readonly (() => Promise<MetricsAnswer['families']>)[],
): void {
  port.on('message', ({ id }: MetricsRequest) => {
    void Promise.all(sources.map((source) => source().catch(() => [])))
      .then((families) => port.postMessage({ id, families: families.flat() } satisfies MetricsAnswer))
      .catch(() => port.postMessage({ id, families: [] } satisfies MetricsAnswer));
  });
}

function nextMessage<T extends ToBookkeeping>(port: NonNullable<typeof parentPort>): Promise<T> {
  return new Promise((resolve) => port.once('message', resolve));
}

if (parentPort === null) throw new Error('embedded-bookkeeping-worker runs as a worker thread');
void main(parentPort, workerData as BookkeepingWorkerData);
