import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { EventBus } from '@tollgate/events';
import type { KvStore } from '@tollgate/kv';

/**
 * What a service is started with besides its environment: the shared infrastructure adapters.
 * Embedded mode hands every service the same in-process bus and memory store (directly on the main
 * thread, through BridgedEventBus and BridgedKvStore in the bookkeeping worker); distributed mode
 * builds Kafka and Redis clients from the environment.
 */
export interface ServiceRuntime {
  bus: EventBus;
  kv: KvStore;
  /** PGlite behind the database URL (one connection; no advisory locks). */
  embedded: boolean;
}

export interface RunningService {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  /**
   * Opens a connection to the service from within its own thread, without a socket: the client's end
   * of an in-memory pair (InMemorySocket) whose other end the service's HTTP server serves as an
   * accepted TCP connection. Embedded mode's gateway reaches relay so. The service still listens on
   * its port for everyone else. Absent where the service runs in another thread or process.
   */
  connect?(): Duplex;
  /**
   * Serves a request another server of this thread received, as if the service's own HTTP server had:
   * its handler reads the body from the client's connection and answers on `res`, straight to the
   * client. Embedded mode's gateway hands relay its /v1 calls so, after its own checks (see
   * HANDED_OVER_CLIENT). Throws, without touching the request, once the service has begun to close.
   * Absent where the service runs in another thread or process.
   */
  handle?(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Serves on the Unix socket `path` as well as on the port, from the same HTTP server (runMain does it
   * when LISTEN_PATH is set): the launcher's gateway reaches relay so on one host. The socket is closed
   * with the service. Absent where the service cannot.
   */
  listenOn?(path: string): Promise<void>;
  close(): Promise<void>;
}

/** Who is calling, as the server that received the request resolved it (its trusted proxies applied). */
export interface HandedOverClient {
  ip: string;
  protocol: 'http' | 'https';
}

/**
 * Set on a request handed over with RunningService.handle: the caller's address as the receiving server
 * (the gateway) resolved it. The service takes it before its own reading of the socket and the
 * X-Forwarded-For header, whose proxies it does not know. A symbol, so that no client can send it;
 * registered (`Symbol.for`), so that two copies of this module agree on it.
 */
export const HANDED_OVER_CLIENT = Symbol.for('tollgate.handedOverClient');

/** The address the receiving server resolved for a request handed over to this one; undefined otherwise. */
export function handedOverClientOf(req: IncomingMessage): HandedOverClient | undefined {
  return (req as IncomingMessage & { [HANDED_OVER_CLIENT]?: HandedOverClient })[HANDED_OVER_CLIENT];
}

/** Marks `req` as handed over on behalf of `client` (the gateway, before RunningService.handle). */
export function markHandedOver(req: IncomingMessage, client: HandedOverClient): void {
  (req as IncomingMessage & { [HANDED_OVER_CLIENT]?: HandedOverClient })[HANDED_OVER_CLIENT] = client;
}

export type Env = Readonly<Record<string, string | undefined>>;

export type StartService = (env: Env, runtime: ServiceRuntime) => Promise<RunningService>;
