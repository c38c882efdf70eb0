import cluster from 'node:cluster';
import { applyHeapGrowingPercent } from './heap-growing';
import { clearStaleSocket, listenPathFromEnv } from './listen-path';
import type { Env, RunningService, ServiceRuntime, StartService } from './service-runtime';
import type { Telemetry } from './start-telemetry';
import { reportWorkerReady, runClusterPrimary } from './worker-cluster';
import { workerCount } from './worker-count';

/** Loads the service's code and hands back its start function: `() => import('./start-x').then((m) => m.startX)`. */
export type LoadService = () => Promise<StartService>;

/** Builds the service's bus and kv clients (called once, in the process that runs the service). */
export type MakeRuntime = () => ServiceRuntime | Promise<ServiceRuntime>;

/**
 * The body of a service's main.ts: start OpenTelemetry (exporting only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set), load and start the service, print where it listens, and on
 * SIGINT/SIGTERM close the service (which runs Nest's shutdown hooks), then the runtime's clients,
 * then telemetry, once, and exit 0. This is the process's only signal handler. A failed start prints
 * the reason and exits 1.
 *
 * With LISTEN_PATH set, the service serves on that Unix socket as well as on its port (a socket file
 * left by a process that died is removed first; one a live process holds fails the start).
 *
 * With TOLLGATE_WORKERS above 1 (or `auto`), this process becomes a cluster primary that runs that
 * many workers, each a whole copy of the service on the same port (see runClusterPrimary). The
 * service, its runtime and telemetry are loaded only where they run, so a primary stays small.
 *
 * TOLLGATE_HEAP_GROWING_PERCENT(_<SERVICE>) sets V8's heap growing percent first (heap-growing.ts).
 */
export async function runMain(
  serviceName: string,
  loadService: LoadService,
  makeRuntime: MakeRuntime,
  env: Env,
): Promise<void> {
  let workers: number;
  let listenPath: string | undefined;
  try {
    workers = workerCount(env, serviceName);
    applyHeapGrowingPercent(env, serviceName);
    listenPath = listenPathFromEnv(env);
    // Once per service: a cluster's workers listen through their primary, which holds the socket.
    if (listenPath && cluster.isPrimary) await clearStaleSocket(listenPath);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  if (workers > 1 && cluster.isPrimary) {
    runClusterPrimary({ serviceName, workers });
    return;
  }
  let telemetry: Telemetry | undefined;
  let runtime: ServiceRuntime | undefined;
  let service: RunningService | undefined;
  let closing = false;
  const close = async (code: number) => {
    if (closing) return;
    closing = true;
    try {
      await service?.close();
      await runtime?.bus.close();
      await runtime?.kv.close();
      await telemetry?.shutdown();
    } finally {
      process.exit(code);
    }
  };
  process.once('SIGINT', () => void close(0));
  process.once('SIGTERM', () => void close(0));
  try {
    const { startTelemetry } = await import('./start-telemetry');
    telemetry = await startTelemetry({
      serviceName: `tollgate-${serviceName}`,
      otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    });
    runtime = await makeRuntime();
    const start = await loadService();
    service = await start(env, runtime);
    if (listenPath) {
      if (!service.listenOn) throw new Error(`LISTEN_PATH: ${serviceName} cannot listen on a Unix socket`);
      await service.listenOn(listenPath);
    }
    const where = listenPath ? `${service.url} and unix:${listenPath}` : service.url;
    if (cluster.isWorker) reportWorkerReady(where);
    else process.stdout.write(`${service.name} listening on ${where}\n`);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    await close(1);
  }
}
