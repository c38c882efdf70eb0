import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { DynamicModule } from '@nestjs/common';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import {
  createLogger,
  createServiceApp,
  redactConfig,
  type BaseServiceConfig,
  type ErrorRendererRoute,
  type Logger,
  type ServiceApp,
} from '@tollgate/platform';
import { EventBusTransport, type EventBusTransportOptions } from './event-transport';
import { takeHeldPort } from './free-port';
import { InMemorySocket } from './in-memory-socket';
import { listenOnPath, type PathListener } from './listen-path';
import type { RunningService } from './service-runtime';

/**
 * How long closing waits for the calls in progress on a Unix socket (the gateway→relay hop) before it
 * cuts them: relay's upstream calls are bounded by their own timeouts, and a stop must still end.
 */
const PATH_DRAIN_TIMEOUT_MS = 10_000;

export interface NestServiceSpec<C extends BaseServiceConfig> {
  name: string;
  config: C;
  module: DynamicModule;
  /** Defaults to a logger named after the service at the configured level. */
  logger?: Logger;
  errorRenderers?: readonly ErrorRendererRoute[];
  bodyLimit?: number;
  /** See ServiceAppOptions: both on unless the service says otherwise. */
  asyncRequestContext?: boolean;
  nestMiddleware?: boolean;
  /** Runs on the Fastify instance before the app listens (raw routes, plugins). */
  beforeListen?: (app: Awaited<ReturnType<typeof createServiceApp>>['app']) => Promise<void>;
  /**
   * Serves the app's @BusEvent handlers from its event bus (EVENT_BUS) through EventBusTransport,
   * with these options; without it, a @BusEvent handler never runs.
   */
  eventTransport?: EventBusTransportOptions;
}

/** Creates the service's Nest app with the platform wired in, listens, and returns its handle. */
export async function startNestService<C extends BaseServiceConfig>(
  spec: NestServiceSpec<C>,
): Promise<RunningService> {
  const logger = spec.logger ?? createLogger({ service: spec.name, level: spec.config.LOG_LEVEL });
  const service = await createServiceApp(spec.module, {
    service: spec.name,
    config: spec.config,
    logger,
    ...(spec.errorRenderers ? { errorRenderers: spec.errorRenderers } : {}),
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    ...(spec.asyncRequestContext === false ? { asyncRequestContext: false } : {}),
    ...(spec.nestMiddleware === false ? { nestMiddleware: false } : {}),
  });
  try {
    if (spec.beforeListen) await spec.beforeListen(service.app);
    if (spec.eventTransport) {
      const bus = service.app.get<EventBus>(EVENT_BUS);
      service.app.connectMicroservice(
        { strategy: new EventBusTransport(bus, spec.eventTransport) },
        { inheritAppConfig: true },
      );
      // Handlers join their groups only once the topics exist and the database is migrated (init).
      // On close, Nest stops them after HTTP has closed and before the database closes.
      await service.app.init();
      await service.app.startAllMicroservices();
    }
    const port = await listen(service, spec, logger);
    const host = spec.config.HOST === '0.0.0.0' ? '127.0.0.1' : spec.config.HOST;
    const httpServer = service.app.getHttpServer() as Server;
    const inMemory = new InMemoryConnections(httpServer);
    const paths: PathListener[] = [];
    return {
      name: spec.name,
      port,
      url: `http://${host}:${port}`,
      connect: () => inMemory.connect(),
      handle: (req, res) => inMemory.handle(req, res),
      listenOn: async (path) => {
        paths.push(await listenOnPath(httpServer, path));
        logger.info({ path }, `${spec.name} listening on a Unix socket`);
      },
      close: async () => {
        inMemory.refuse();
        await Promise.all(paths.map((p) => p.stopAccepting()));
        await Promise.all(paths.map((p) => p.drain(PATH_DRAIN_TIMEOUT_MS)));
        try {
          await service.close();
        } finally {
          // The server's close ends idle and timed-out connections; these it cannot count as its own.
          inMemory.destroyAll();
          for (const p of paths) p.destroyConnections();
        }
      },
    };
  } catch (error) {
    // Whatever started (groups joined, database pool) must not keep the process alive.
    await service.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Listens on the configured port, or, when this process holds that port (embedded mode: the launcher
 * binds every service's port before starting any, see holdPorts), takes the held socket over.
 */
async function listen<C extends BaseServiceConfig>(
  service: ServiceApp,
  { name, config }: NestServiceSpec<C>,
  logger: Logger,
): Promise<number> {
  const takeover = takeHeldPort(config.PORT);
  if (!takeover) return service.listen();
  await service.app.listen(takeover.listenOptions);
  takeover.adopted(service.app.getHttpServer());
  logger.info({ host: config.HOST, port: config.PORT, config: redactConfig(config) }, `${name} listening`);
  return config.PORT;
}

/**
 * The service's in-memory connections (RunningService.connect): each pair's server end is handed to
 * the HTTP server as an accepted connection, so Node's parser, timeouts, keep-alive and
 * closeAllConnections apply to it as to a TCP one. The server's close does not wait for them (it
 * counts only connections it accepted itself), so the service destroys whatever is left once it has
 * closed, and refuses new ones from when its close begins. Requests handed over (RunningService.handle)
 * go to the server's request handler as they are; they are refused from then too.
 */
class InMemoryConnections {
  private readonly open = new Set<InMemorySocket>();
  private refused = false;

  constructor(private readonly server: Server) {}

  connect(): InMemorySocket {
    const [client, end] = InMemorySocket.pair();
    if (this.refused) {
      end.destroy();
      return client;
    }
    this.open.add(end);
    end.once('close', () => this.open.delete(end));
    this.server.emit('connection', end);
    return client;
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.refused) throw new ServiceClosingError();
    this.server.emit('request', req, res);
  }

  refuse(): void {
    this.refused = true;
  }

  destroyAll(): void {
    for (const end of this.open) end.destroy();
  }
}

/** A request handed to a service whose close has begun (RunningService.handle). */
export class ServiceClosingError extends Error {
  constructor() {
    super('the service is closing');
  }
}
