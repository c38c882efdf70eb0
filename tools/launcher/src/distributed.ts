import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { BACKEND_SERVICES, type BackendService, type ServiceName } from '@tollgate/contracts';
import { freePorts, type Env } from '@tollgate/runtime';
import { serviceUrlEnv } from './service-urls';
import { databaseUrl, ensureDatabases } from './service-databases';
import { DEFAULT_READY_TIMEOUT_MS } from './ready-timeout';
import { PortTakenError, ServiceProcess } from './service-process';
import { bookkeepingNiceFromEnv, serviceNice } from './process-priority';
import { relaySocketPath, unixHopFromEnv } from './unix-hop';

const DATABASE_SERVICES = ['auth', 'billing', 'chat', 'admin'] as const;

export interface DistributedOptions {
  repoRoot: string;
  /** Base environment of every service: secrets, root user, OAuth ids, …; plus the infrastructure. */
  env: Env;
  /** Admin URL of the PostgreSQL server; each service gets its own database on it. */
  postgresAdminUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  /** Database names are `<prefix>_<service>` (default `tollgate`). */
  databasePrefix?: string;
  gatewayPort?: number;
  /** Fixed ports per service; free ones otherwise. */
  servicePorts?: Partial<Record<BackendService, number>>;
  logDir: string;
  /** Services not to start now (a test starts them itself). */
  skip?: readonly BackendService[];
  /** How long each service may take to become ready (default 60 000 ms; a cold start on a busy machine needs more). */
  readyTimeoutMs?: number;
  /**
   * Nice value of auth, billing, admin and chat, which share the machine's cores with gateway and relay
   * (default `TOLLGATE_BOOKKEEPING_NICE` of `env` or of this process, else 10; 0 leaves them at gateway's).
   */
  bookkeepingNice?: number;
  /**
   * The gateway reaches relay over a Unix socket (relay's LISTEN_PATH, the gateway's RELAY_URL=unix:…);
   * relay keeps its port for everyone else. Default `TOLLGATE_UNIX_HOP` of `env` or of this process,
   * else off (TCP loopback).
   */
  unixHop?: boolean;
  /** Where relay's socket goes (`relay.sock` in it); a new private temporary directory by default. */
  socketDir?: string;
}

export interface DistributedPlatform {
  url: string;
  services: Record<ServiceName, ServiceProcess>;
  databaseUrls: Record<(typeof DATABASE_SERVICES)[number], string>;
  /** The brokers the services were given (comma-separated), for a caller that publishes to them too. */
  kafkaBrokers: string;
  /** Relay's Unix socket, which the gateway calls it on (absent when the hop is TCP). */
  relaySocketPath?: string;
  stop(): Promise<void>;
}

/** Every service in its own process on real PostgreSQL, Redis and Kafka, the gateway in front. */
export async function startDistributed(options: DistributedOptions): Promise<DistributedPlatform> {
  mkdirSync(options.logDir, { recursive: true });
  const prefix = options.databasePrefix ?? 'tollgate';
  const databaseUrls = Object.fromEntries(
    DATABASE_SERVICES.map((s) => [s, databaseUrl(options.postgresAdminUrl, `${prefix}_${s}`)]),
  ) as DistributedPlatform['databaseUrls'];
  await ensureDatabases(
    options.postgresAdminUrl,
    DATABASE_SERVICES.map((s) => `${prefix}_${s}`),
  );

  // A port is probed free, then bound by its service seconds later: another program may take it in
  // between. The service then fails to start, and the whole platform starts again on other ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServices(options, databaseUrls);
    } catch (error) {
      const chosenByUs = error instanceof PortTakenError && !isFixedPort(options, error.port);
      if (!chosenByUs || attempt >= PORT_TAKEN_ATTEMPTS) throw error;
    }
  }
}

/** How often a start whose probed-free port was taken meanwhile is made again on fresh ports. */
const PORT_TAKEN_ATTEMPTS = 3;

function isFixedPort(options: DistributedOptions, port: number): boolean {
  return options.gatewayPort === port || Object.values(options.servicePorts ?? {}).includes(port);
}

async function startServices(
  options: DistributedOptions,
  databaseUrls: DistributedPlatform['databaseUrls'],
): Promise<DistributedPlatform> {
  const ports = {} as Record<ServiceName, number>;
  // Chosen together, so that no two services are given the same port.
  const chosen = await freePorts(BACKEND_SERVICES.length + 1);
  BACKEND_SERVICES.forEach((name, index) => (ports[name] = options.servicePorts?.[name] ?? chosen[index]!));
  ports.gateway = options.gatewayPort ?? chosen[BACKEND_SERVICES.length]!;

  const common: Env = {
    ...options.env,
    REDIS_URL: options.redisUrl,
    KAFKA_BROKERS: options.kafkaBrokers,
    ...serviceUrlEnv(ports),
  };
  const unixHop = options.unixHop ?? unixHopFromEnv({ ...process.env, ...options.env });
  const relaySocket = unixHop ? relaySocketPath(options.socketDir) : undefined;
  const envOf = (name: ServiceName): Env => {
    // Only the gateway's hop: chat and admin call relay rarely, and keep its port.
    if (name === 'gateway')
      return relaySocket ? { ...common, RELAY_URL: `unix:${relaySocket.path}` } : common;
    if (name === 'relay') return relaySocket ? { ...common, LISTEN_PATH: relaySocket.path } : common;
    const db = (DATABASE_SERVICES as readonly string[]).includes(name)
      ? { DATABASE_URL: databaseUrls[name as (typeof DATABASE_SERVICES)[number]] }
      : {};
    return { ...common, ...db };
  };

  const bookkeepingNice =
    options.bookkeepingNice ?? bookkeepingNiceFromEnv({ ...process.env, ...options.env });
  const services = {} as Record<ServiceName, ServiceProcess>;
  for (const name of [...BACKEND_SERVICES, 'gateway'] as ServiceName[]) {
    services[name] = new ServiceProcess({
      name,
      repoRoot: options.repoRoot,
      port: ports[name],
      env: envOf(name),
      logDir: options.logDir,
      readyTimeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
      nice: serviceNice(name, bookkeepingNice),
      // Ready when the gateway can reach it.
      ...(name === 'relay' && relaySocket ? { readySocketPath: relaySocket.path } : {}),
    });
  }

  const stop = async () => {
    await Promise.all(Object.values(services).map((s) => s.kill('SIGTERM')));
    if (relaySocket?.temporary) rmSync(dirname(relaySocket.path), { recursive: true, force: true });
  };
  try {
    const skip = new Set(options.skip ?? []);
    // The gateway starts beside the backends: it needs none of them to start, and the platform is
    // handed over only once every one of them is ready.
    const names: ServiceName[] = [...BACKEND_SERVICES.filter((s) => !skip.has(s)), 'gateway'];
    await Promise.all(names.map((name) => services[name].start()));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: services.gateway.url,
    services,
    databaseUrls,
    kafkaBrokers: options.kafkaBrokers,
    ...(relaySocket ? { relaySocketPath: relaySocket.path } : {}),
    stop,
  };
}
