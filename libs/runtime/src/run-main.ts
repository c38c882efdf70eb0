import cluster from 'node:cluster';
import { startTelemetry, type Telemetry } from '@tollgate/platform';
import type { Env, RunningService, ServiceRuntime } from './service-runtime';
import { reportWorkerReady, runClusterPrimary } from './worker-cluster';
import { workerCount } from './worker-count';

/**
 * The body of a service's main.ts: start OpenTelemetry (exporting only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set), start the service, print where it listens, and on
 * SIGINT/SIGTERM close the service, then the runtime's clients, then telemetry, once. A failed start
 * prints the reason and exits 1.
 *
 * With TOLLGATE_WORKERS above 1 (or `auto`), this process becomes a cluster primary that runs that
 * many workers, each a whole copy of the service on the same port (see runClusterPrimary).
 */
export async function runMain(
  serviceName: string,
  start: (env: Env, runtime: ServiceRuntime) => Promise<RunningService>,
  makeRuntime: () => ServiceRuntime,
  env: Env,
): Promise<void> {
  let workers: number;
  try {
    workers = workerCount(env, serviceName);
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
    telemetry = startTelemetry({
      serviceName: `tollgate-${serviceName}`,
      otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    });
    runtime = makeRuntime();
    service = await start(env, runtime);
    if (cluster.isWorker) reportWorkerReady(service.url);
    else process.stdout.write(`${service.name} listening on ${service.url}\n`);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    await close(1);
  }
}
