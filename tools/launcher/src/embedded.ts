import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startAdmin } from '@tollgate/admin';
import { startAuth } from '@tollgate/auth';
import { startBilling } from '@tollgate/billing';
import { startChat } from '@tollgate/chat';
import { InProcessEventBus } from '@tollgate/events';
import { startGateway } from '@tollgate/gateway';
import { startTelemetry } from '@tollgate/platform';
import { MemoryKvStore } from '@tollgate/kv';
import type { PgliteServer } from '@tollgate/persistence';
import { startRelay } from '@tollgate/relay';
import {
  busLoggerFor,
  type Env,
  type RunningService,
  type ServiceRuntime,
  type StartService,
} from '@tollgate/runtime';
import { startServiceDatabase } from './embedded-databases';
import { embeddedSecrets } from './embedded-secrets';

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

const DATABASE_SERVICES: readonly [string, StartService][] = [
  ['auth', startAuth],
  ['billing', startBilling],
  ['chat', startChat],
  ['admin', startAdmin],
];

/**
 * The whole platform in one process, laid out as in production: every service on its own loopback
 * port with its own database (a PGlite instance each), the gateway in front. The bus is in-process
 * and the key-value store in memory, both shared by the services as Kafka and Redis would be.
 */
export async function startEmbedded({
  env,
  repoRoot,
  log = () => undefined,
}: EmbeddedOptions): Promise<EmbeddedPlatform> {
  const dataDir = resolve(env.TOLLGATE_DATA_DIR || join(repoRoot, 'data'));
  mkdirSync(dataDir, { recursive: true });
  const secrets = embeddedSecrets(env, dataDir);
  const baseEnv: Env = {
    ...env,
    ...secrets,
    HOST: '127.0.0.1',
    PORT: '0',
    // Without SMTP, auth writes each mail as an .eml file here.
    MAIL_OUTBOX_DIR: env.MAIL_OUTBOX_DIR || join(dataDir, 'outbox'),
  };

  // OpenTelemetry is one SDK per process: in embedded mode the platform reports as one service.
  const telemetry = startTelemetry({
    serviceName: 'tollgate-embedded',
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
  });
  const bus = new InProcessEventBus({
    dataDir: join(dataDir, 'bus'),
    logger: busLoggerFor('embedded', env.LOG_LEVEL),
  });
  const kv = new MemoryKvStore();
  const runtime: ServiceRuntime = { bus, kv, embedded: true };
  const databases: PgliteServer[] = [];
  const services: RunningService[] = [];

  const close = async () => {
    for (const service of [...services].reverse()) await service.close().catch(() => undefined);
    for (const db of databases) await db.close().catch(() => undefined);
    await bus.close();
    await kv.close();
    await telemetry.shutdown();
  };

  try {
    const gatewayPort = env.PORT || '3000';
    const serverAddress = env.SERVER_ADDRESS || `http://localhost:${gatewayPort}`;
    for (const [name, start] of DATABASE_SERVICES) {
      const db = await startServiceDatabase(join(dataDir, 'pg'), name);
      databases.push(db);
      const service = await start(
        { ...baseEnv, DATABASE_URL: db.url, SERVER_ADDRESS: serverAddress },
        runtime,
      );
      services.push(service);
      log(`${name} on ${service.url}`);
    }
    const relay = await startRelay(baseEnv, runtime);
    services.push(relay);
    log(`relay on ${relay.url}`);

    const url = (name: string) => services.find((s) => s.name === name)?.url ?? '';
    const gateway = await startGateway({
      ...baseEnv,
      HOST: env.HOST || '127.0.0.1',
      PORT: gatewayPort,
      AUTH_URL: url('auth'),
      BILLING_URL: url('billing'),
      RELAY_URL: url('relay'),
      CHAT_URL: url('chat'),
      ADMIN_URL: url('admin'),
      WEB_DIST_DIR: env.WEB_DIST_DIR || join(repoRoot, 'apps', 'web', 'dist'),
    });
    services.push(gateway);
    return { url: gateway.url, services, close };
  } catch (err) {
    await close();
    throw err;
  }
}
