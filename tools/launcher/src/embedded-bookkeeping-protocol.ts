import type { MessagePort } from 'node:worker_threads';
import type { BackendService } from '@tollgate/contracts';
import type { PgliteDatabase } from '@tollgate/persistence';
import type { Env } from '@tollgate/runtime';
import type { MetricsService } from '@tollgate/platform';

type MetricFamily = Awaited<ReturnType<MetricsService['families']>>[number];

/** The services the bookkeeping worker runs, in start order: those with a database. */
export const BOOKKEEPING_SERVICES = [
  'auth',
  'billing',
  'chat',
  'admin',
] as const satisfies readonly BackendService[];
export type BookkeepingService = (typeof BOOKKEEPING_SERVICES)[number];

export interface BookkeepingWorkerData {
  /**
   * Each service's PGlite database (data directory, and its schema when the services share one
   * cluster), in the order of BOOKKEEPING_SERVICES: `prepareServiceDatabases`.
   */
  pgDataDirs: PgliteDatabase[];
  /** The main thread's event bus and key-value store, served over these ports. */
  busPort: MessagePort;
  kvPort: MessagePort;
  /** Scrapes of its services' metrics: `MetricsRequest` in, `MetricsAnswer` out. */
  metricsPort: MessagePort;
  logLevel: string | undefined;
  otlpEndpoint: string | undefined;
}

/** Main thread → worker. */
export type ToBookkeeping =
  /** Every service's environment (the other services' URLs included); DATABASE_URL is the worker's. */
  { start: Record<BookkeepingService, Env> } | { close: true };

/** Worker → main thread. */
export type FromBookkeeping =
  /** Its databases are up and it holds a port for each of its services. */
  | { held: Record<BookkeepingService, number> }
  | { started: { name: string; port: number; url: string }[] }
  /** Start-up failed; what had started is closed and the worker is ending. */
  | { failed: string }
  /** Everything is closed; the worker is ending. */
  | { closed: true; errors: string[] };

/** Main thread → worker, on the metrics port: the families of every service the worker runs. */
export interface MetricsRequest {
  id: number;
}

/** Worker → main thread, on the metrics port. */
export interface MetricsAnswer {
  id: number;
  families: MetricFamily[];
}
