import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InProcessEventBus } from '@tollgate/events';
import { startGateway, type GatewayStartOptions } from '@tollgate/gateway';
import { MemoryKvStore } from '@tollgate/kv';
import type { PgliteServer } from '@tollgate/persistence';
import { MetricsService } from '@tollgate/platform';
import { startRelay } from '@tollgate/relay';
import { BACKEND_SERVICES, type BackendService } from '@tollgate/contracts';
import {
  busLoggerFor,
  holdPorts,
  releaseHeldPorts,
  startTelemetry,
  type Env,
  type RunningService,
  type ServiceRuntime,
  type StartService,
} from '@tollgate/runtime';
import { lockDataDir } from './data-dir-lock';
import { startBookkeepingWorker, type BookkeepingWorker } from './embedded-bookkeeping';
import { BOOKKEEPING_SERVICES } from './embedded-bookkeeping-protocol';
import { prepareServiceDatabases, startServiceDatabases } from './embedded-databases';
import { serviceUrlEnv } from './service-urls';
import { embeddedSecrets, type EmbeddedSecrets } from './embedded-secrets';
import { KV_SNAPSHOT_FILE, KvSnapshotFile } from './kv-snapshot-file';
import { mallocTrimIntervalMs, startMallocTrim, type MallocTrimmer } from './malloc-trim';

export interface EmbeddedPlatform {
  /** The gateway's address. */
  url: string;
  services: readonly RunningService[];
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  env: Env;
  /** Where apps/web/dist lives (the repository root). */
  repoRoot: string;
  log?: (line: string) => void;
}

/**
 * The services with a database, for the main thread: loaded only when they run there, so that with
 * the bookkeeping worker their modules (MikroORM, entities, …) are not held by both threads.
 */
async function databaseServices(): Promise<readonly [BackendService, StartService][]> {
  const [{ startAuth }, { startBilling }, { startChat }, { startAdmin }] = await Promise.all([
    import('@tollgate/auth'),
    import('@tollgate/billing'),
    import('@tollgate/chat'),
    import('@tollgate/admin'),
  ]);
  return [
    ['auth', startAuth],
    ['billing', startBilling],
    ['chat', startChat],
    ['admin', startAdmin],
  ];
}

/** `TOLLGATE_EMBEDDED_WORKER=0` runs every service on the main thread (PGlite still in a worker). */
export const EMBEDDED_WORKER_ENV = 'TOLLGATE_EMBEDDED_WORKER';

/** `TOLLGATE_EMBEDDED_MEMORY_HOP=0`: the gateway reaches the main thread's services over TCP loopback. */
export const EMBEDDED_MEMORY_HOP_ENV = 'TOLLGATE_EMBEDDED_MEMORY_HOP';

/**
 * `TOLLGATE_EMBEDDED_HANDOVER=0`: the gateway forwards /v1 calls to relay over the in-memory hop rather
 * than handing them to relay's server, to compare the two (bench/ANALYSIS.md, H53).
 */
export const EMBEDDED_HANDOVER_ENV = 'TOLLGATE_EMBEDDED_HANDOVER';

/**
 * The whole platform in one process, laid out as in production: every service on its own loopback
 * port with its own database (a PGlite instance each), the gateway in front. The bus is in-process
 * and the key-value store in memory, both shared by the services as Kafka and Redis would be.
 *
 * Gateway and relay run on the main thread; auth, billing, chat and admin run with their databases
 * in one worker thread (embedded-bookkeeping.ts), so that their transactions and consumers never
 * hold a call up. The bus and the store belong to the main thread, where the relay uses them on
 * every call; the worker reaches them through bridges. With TOLLGATE_EMBEDDED_WORKER=0 every
 * service runs on the main thread and only PGlite in a worker, as before.
 */
export async function startEmbedded({
  env,
  repoRoot,
  log = () => undefined,
}: EmbeddedOptions): Promise<EmbeddedPlatform> {
  const trimIntervalMs = mallocTrimIntervalMs(env);
  const dataDir = resolve(env.TOLLGATE_DATA_DIR || join(repoRoot, 'data'));
  mkdirSync(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir);
  // Until the services' own cleanup below can run, a failed start gives the lock and the ports back
  // here: a caller in the same process (a test, the bench) can then start on this data dir again.
  const heldEarly: number[] = [];
  const giveBack = async (error: unknown): Promise<never> => {
    await releaseHeldPorts(heldEarly);
    await lock.release();
    throw error;
  };
  let secrets: EmbeddedSecrets;
  try {
    secrets = embeddedSecrets(env, dataDir);
  } catch (error) {
    return giveBack(error);
  }
  // Services call each other (admin → relay, relay → admin, auth → billing), so every port is chosen
  // first; and held, bound by this process, until its service takes it over when it listens: a port
  // probed free and bound later could be taken in between by another program.
  // A port is held by the thread whose service will listen on it: the bookkeeping worker holds its own.
  const inWorker = env[EMBEDDED_WORKER_ENV] !== '0';
  const mainThreadServices = inWorker
    ? BACKEND_SERVICES.filter((name) => !(BOOKKEEPING_SERVICES as readonly string[]).includes(name))
    : BACKEND_SERVICES;
  const gatewayHost = env.HOST || '127.0.0.1';
  // The gateway's port first (PORT, or any free one for PORT=0), held like the others: no internal
  // service, here or in the worker, can then be given a port a caller probed free and passed as PORT,
  // and SERVER_ADDRESS names the port the gateway will have.
  // A PORT that is no port is left to the gateway's settings to refuse, with their message.
  const askedPort = Number(env.PORT || '3000');
  const gatewayHeld = isPortNumber(askedPort)
    ? await holdPorts(1, gatewayHost, askedPort).catch(giveBack)
    : [];
  heldEarly.push(...gatewayHeld);
  const servicesHeld = await holdPorts(mainThreadServices.length).catch(giveBack);
  heldEarly.push(...servicesHeld);
  const chosen = [...servicesHeld, ...gatewayHeld];
  const ports = {} as Record<BackendService, number>;
  mainThreadServices.forEach((name, index) => (ports[name] = chosen[index]!));
  const baseEnv: Env = {
    ...env,
    ...secrets,
    HOST: '127.0.0.1',
    // Without SMTP, auth writes each mail as an .eml file here.
    MAIL_OUTBOX_DIR: env.MAIL_OUTBOX_DIR || join(dataDir, 'outbox'),
    // Not relay's default (data/relay-usage-spool, a distributed relay's): usage spooled against the
    // other platform's database must never be adopted here, where its user ids name other people.
    RELAY_USAGE_SPOOL_DIR: env.RELAY_USAGE_SPOOL_DIR || join(dataDir, 'relay-usage-spool-embedded'),
  };
  const envOf = (name: BackendService, extra: Env = {}): Env => ({
    ...baseEnv,
    ...serviceUrlEnv(ports),
    ...extra,
    PORT: String(ports[name]),
  });

  // OpenTelemetry is one SDK per process: in embedded mode the platform reports as one service.
  const telemetry = await startTelemetry({
    serviceName: 'tollgate-embedded',
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
  }).catch(giveBack);
  let bus: InProcessEventBus;
  try {
    // Reads the bus's files at once: a damaged one fails the start here.
    bus = new InProcessEventBus({
      dataDir: join(dataDir, 'bus'),
      logger: busLoggerFor('embedded', env.LOG_LEVEL),
    });
  } catch (error) {
    await telemetry.shutdown().catch(() => undefined);
    return giveBack(error);
  }
  const kv = new MemoryKvStore();
  const kvSnapshot = new KvSnapshotFile(kv, join(dataDir, KV_SNAPSHOT_FILE), log);
  const restoredKeys = kvSnapshot.load();
  if (restoredKeys > 0)
    log(`restored ${restoredKeys} key-value entries (sessions among them) from ${KV_SNAPSHOT_FILE}`);
  kvSnapshot.start();
  const runtime: ServiceRuntime = { bus, kv, embedded: true };
  const databases: PgliteServer[] = [];
  const services: RunningService[] = [];
  let bookkeeping: BookkeepingWorker | undefined;
  let trimmer: MallocTrimmer | undefined;

  const close = async () => {
    trimmer?.stop();
    for (const service of [...services].reverse()) await service.close().catch(() => undefined);
    await bookkeeping?.close().catch(() => undefined);
    for (const db of databases) await db.close().catch(() => undefined);
    await bus.close();
    await kvSnapshot.stop();
    await kv.close();
    await telemetry.shutdown();
    await releaseHeldPorts(chosen);
    await lock.release();
  };

  try {
    const gatewayPort = String(gatewayHeld[0] ?? env.PORT);
    const serverAddress = env.SERVER_ADDRESS || `http://localhost:${gatewayPort}`;
    const pgDir = join(dataDir, 'pg');
    if (inWorker) {
      bookkeeping = await startBookkeepingWorker({
        pgDataDirs: await prepareServiceDatabases(pgDir, BOOKKEEPING_SERVICES, log),
        bus,
        kv,
        logLevel: env.LOG_LEVEL,
        otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
      });
      Object.assign(ports, bookkeeping.ports);
      const envs = Object.fromEntries(
        BOOKKEEPING_SERVICES.map((name) => [name, envOf(name, { SERVER_ADDRESS: serverAddress })]),
      ) as Record<(typeof BOOKKEEPING_SERVICES)[number], Env>;
      for (const service of await bookkeeping.start(envs)) {
        services.push(service);
        log(`${service.name} on ${service.url} (bookkeeping worker)`);
      }
    } else {
      const DATABASE_SERVICES = await databaseServices();
      // The services' PGlite runs on this thread with them: only in-thread connections keep their sessions apart.
      databases.push(
        ...(await startServiceDatabases(
          pgDir,
          DATABASE_SERVICES.map(([name]) => name),
          log,
        )),
      );
      for (const [index, [name, start]] of DATABASE_SERVICES.entries()) {
        const service = await start(
          envOf(name, { DATABASE_URL: databases[index]!.url, SERVER_ADDRESS: serverAddress }),
          runtime,
        );
        services.push(service);
        log(`${name} on ${service.url}`);
      }
    }
    const relay = await startRelay(envOf('relay'), runtime);
    services.push(relay);
    log(`relay on ${relay.url}`);

    // The gateway reaches the services on this thread (relay, and with TOLLGATE_EMBEDDED_WORKER=0 all of
    // them) over in-memory connections: HTTP/1.1 as over TCP, without a kernel socket or a descriptor
    // at either end. Those in the bookkeeping worker, over TCP loopback.
    // TOLLGATE_EMBEDDED_MEMORY_HOP=0 keeps TCP loopback, to compare the two (bench/ANALYSIS.md, H38).
    const memoryHop = env[EMBEDDED_MEMORY_HOP_ENV] !== '0';
    const inProcessBackends = Object.fromEntries(
      memoryHop
        ? services.flatMap((service) => (service.connect ? [[service.name, () => service.connect!()]] : []))
        : [],
    ) as GatewayStartOptions['inProcessBackends'];
    // Its /v1 calls it hands to relay's server outright (no second HTTP exchange), unless told not to.
    const handOver = memoryHop && env[EMBEDDED_HANDOVER_ENV] !== '0' && relay.handle !== undefined;
    const gateway = await startGateway(
      {
        ...baseEnv,
        ...serviceUrlEnv(ports),
        HOST: gatewayHost,
        PORT: gatewayPort,
        WEB_DIST_DIR: env.WEB_DIST_DIR || join(repoRoot, 'apps', 'web', 'dist'),
      },
      {
        inProcessBackends,
        ...(handOver ? { relayHandler: (req, res) => relay.handle!(req, res) } : {}),
      },
    );
    services.push(gateway);
    serveEveryServiceMetrics(gateway, services, bookkeeping);
    // What start-up freed goes back to the system now, and what later work frees, every interval.
    trimmer = await startMallocTrim(trimIntervalMs);
    return { url: gateway.url, services, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The gateway's /metrics on PORT serves every service's series: its own, those of the services on this
 * thread (relay's channel metrics) and the bookkeeping worker's, each series with its `service` label
 * as on the service's own /metrics. The services' loopback ports change at every start; PORT does not.
 */
function serveEveryServiceMetrics(
  gateway: RunningService,
  services: readonly RunningService[],
  bookkeeping: BookkeepingWorker | undefined,
): void {
  const inWorker = (name: string) =>
    bookkeeping !== undefined && (BOOKKEEPING_SERVICES as readonly string[]).includes(name);
  const onThisThread = services.filter((service) => service !== gateway && !inWorker(service.name));
  MetricsService.listeningOn(gateway.port)?.serveWith([
    ...onThisThread.map((service) => MetricsService.familiesOfServiceOn(service.port)),
    ...(bookkeeping ? [bookkeeping.metricFamilies] : []),
  ]);
}

function isPortNumber(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 65_535;
}
