// The distributed platform for the chaos run: every service its own process on the run's PostgreSQL,
// Redis and Kafka, with two relay and two billing replicas, each pair behind a balancer on the port
// the other services and the gateway know (as a Kubernetes Service fronts a Deployment's pods).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BACKEND_SERVICES, type BackendService } from '@tollgate/contracts';
import { startDistributed, ServiceProcess, type DistributedPlatform } from '@tollgate/launcher';
import { freePorts } from '@tollgate/runtime';
import { TEST_OPERATOR_ENV } from '@tollgate/testing';
import { ReplicaBalancer } from './balancer';
import type { InfraEnv } from './infra';

export const REPLICATED = ['relay', 'billing'] as const;
export type ReplicatedService = (typeof REPLICATED)[number];
export type ReplicaName = `${ReplicatedService}-${1 | 2}`;

export interface ChaosPlatform {
  url: string;
  platform: DistributedPlatform;
  replicas: Record<ReplicaName, ServiceProcess>;
  balancers: ReplicaBalancer[];
  root: { username: string; password: string };
  stop(): Promise<void>;
}

export interface ChaosPlatformOptions {
  repoRoot: string;
  infra: InfraEnv;
  runId: string;
  logDir: string;
  /** Settings every service gets on top of the suite's own (payment provider, …). */
  env: Record<string, string>;
}

const READY_TIMEOUT_MS = 240_000;

/**
 * Relay's quota store settings, set here (at relay's defaults) because the reservation check reads
 * the store with them: a reservation's TTL gives the time it was taken, a hold lapses after holdMs.
 */
export const RELAY_QUOTA = { reservationTtlMs: 900_000, holdMs: 60_000, leaseMs: 500 } as const;

export async function startChaosPlatform(options: ChaosPlatformOptions): Promise<ChaosPlatform> {
  const root = { username: `chaos_root_${options.runId}`, password: randomBytes(12).toString('hex') };
  const ports = await freePorts(BACKEND_SERVICES.length + 1 + 4);
  const servicePorts = Object.fromEntries(BACKEND_SERVICES.map((s, i) => [s, ports[i]!])) as Record<
    BackendService,
    number
  >;
  const gatewayPort = ports[BACKEND_SERVICES.length]!;
  const replicaPorts: Record<ReplicaName, number> = {
    'relay-1': ports[BACKEND_SERVICES.length + 1]!,
    'relay-2': ports[BACKEND_SERVICES.length + 2]!,
    'billing-1': ports[BACKEND_SERVICES.length + 3]!,
    'billing-2': ports[BACKEND_SERVICES.length + 4]!,
  };
  const env: Record<string, string> = {
    ...TEST_OPERATOR_ENV,
    TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
    TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TOLLGATE_ROOT_USERNAME: root.username,
    TOLLGATE_ROOT_PASSWORD: root.password,
    LOG_LEVEL: 'warn',
    // Every client of the run comes from one address: the per-address limit would measure itself.
    GATEWAY_RATE_LIMIT_PER_MINUTE: '0',
    // Billing never reaches the internet here.
    CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
    RELAY_RESERVATION_TTL_MS: String(RELAY_QUOTA.reservationTtlMs),
    RELAY_QUOTA_HOLD_MS: String(RELAY_QUOTA.holdMs),
    RELAY_QUOTA_LEASE_MS: String(RELAY_QUOTA.leaseMs),
    ...options.env,
  };

  const balancers = REPLICATED.map(
    (service) =>
      new ReplicaBalancer({
        name: service,
        port: servicePorts[service],
        replicas: [1, 2].map((n) => ({
          name: `${service}-${n}`,
          port: replicaPorts[`${service}-${n}` as ReplicaName],
        })),
      }),
  );
  for (const balancer of balancers) await balancer.start();

  const platform = await startDistributed({
    repoRoot: options.repoRoot,
    env,
    postgresAdminUrl: options.infra.DATABASE_URL,
    redisUrl: options.infra.REDIS_URL,
    kafkaBrokers: options.infra.KAFKA_BROKERS,
    databasePrefix: `chaos_${options.runId}`,
    gatewayPort,
    servicePorts,
    logDir: options.logDir,
    skip: [...REPLICATED],
    readyTimeoutMs: READY_TIMEOUT_MS,
  });

  // What startDistributed gives each service, built the same way for the replicas it did not start.
  const common: Record<string, string> = {
    ...env,
    REDIS_URL: options.infra.REDIS_URL,
    KAFKA_BROKERS: options.infra.KAFKA_BROKERS,
    ...Object.fromEntries(
      BACKEND_SERVICES.map((s) => [`${s.toUpperCase()}_URL`, `http://127.0.0.1:${servicePorts[s]}`]),
    ),
  };
  const replica = (name: ReplicaName): ServiceProcess => {
    const service = name.split('-')[0] as ReplicatedService;
    return new ServiceProcess({
      name: service,
      repoRoot: options.repoRoot,
      port: replicaPorts[name],
      env: service === 'billing' ? { ...common, DATABASE_URL: platform.databaseUrls.billing } : common,
      // Each replica's log is <logDir>/<replica>/<service>.log.
      logDir: join(options.logDir, name),
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
  };
  const replicas: Record<ReplicaName, ServiceProcess> = {
    'relay-1': replica('relay-1'),
    'relay-2': replica('relay-2'),
    'billing-1': replica('billing-1'),
    'billing-2': replica('billing-2'),
  };
  for (const name of Object.keys(replicas)) mkdirSync(join(options.logDir, name), { recursive: true });

  const stop = async () => {
    await Promise.all(Object.values(replicas).map((r) => r.kill('SIGTERM')));
    await platform.stop();
    await Promise.all(balancers.map((b) => b.close()));
  };
  try {
    // One billing first: it migrates the database; the second finds it migrated.
    await replicas['billing-1'].start();
    await Promise.all([
      replicas['billing-2'].start(),
      replicas['relay-1'].start(),
      replicas['relay-2'].start(),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: platform.url, platform, replicas, balancers, root, stop };
}
