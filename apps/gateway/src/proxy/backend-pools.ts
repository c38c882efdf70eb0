import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { buildConnector } from 'undici';
import type { BackendService } from '@tollgate/contracts';
import { FreeListPool } from '@tollgate/runtime';

/** Opens a connection to a backend in this process (RunningService.connect): no socket, no descriptor. */
export type InProcessConnect = () => Duplex;

/**
 * Serves a request this gateway received as the backend's own server would (RunningService.handle):
 * the backend reads the body from the client's connection and answers the client itself.
 */
export type InProcessHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface BackendPoolOptions {
  /**
   * Base URL per backend service, e.g. http://127.0.0.1:3001, or `unix:` and the absolute path of the
   * Unix socket it listens on (its LISTEN_PATH), e.g. unix:/var/lib/tollgate/relay.sock.
   */
  urls: Record<BackendService, string>;
  connectionsPerBackend: number;
  /** How long each backend may take to begin its answer (0: no limit). */
  headersTimeoutMs: Record<BackendService, number>;
  /**
   * Backends running in this process (embedded mode): their pool connects through this instead of TCP,
   * still speaking HTTP/1.1 to the backend's URL.
   */
  inProcess?: Partial<Record<BackendService, InProcessConnect>>;
}

/**
 * One keep-alive connection pool per backend service (FreeListPool: undici's Pool walked every busy
 * connection for each new call, which thousands of held streams made costly). The body timeout is off: a long stream is
 * normal here, and the client's own disconnect is what ends it. The headers timeout frees a call
 * held by a frozen backend (its connection stays open, so nothing else would). A backend in this
 * process is reached over in-memory connections with the same pool and the same HTTP.
 */
export class BackendPools {
  private readonly pools = new Map<BackendService, FreeListPool>();

  constructor(options: BackendPoolOptions) {
    for (const [service, url] of Object.entries(options.urls) as [BackendService, string][]) {
      const inProcess = options.inProcess?.[service];
      const socketPath = unixSocketPathOf(url);
      this.pools.set(
        service,
        new FreeListPool(socketPath === undefined ? url : UNIX_SOCKET_ORIGIN, {
          connections: options.connectionsPerBackend,
          pipelining: 1,
          keepAliveTimeout: 30_000,
          keepAliveMaxTimeout: 600_000,
          headersTimeout: options.headersTimeoutMs[service],
          bodyTimeout: 0,
          ...(inProcess
            ? { connect: inProcessConnector(inProcess) }
            : socketPath !== undefined
              ? { connect: buildConnector({ socketPath }) }
              : {}),
        }),
      );
    }
  }

  get(service: BackendService): FreeListPool {
    const pool = this.pools.get(service);
    if (!pool) throw new Error(`no backend pool for ${service}`);
    return pool;
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}

const UNIX_PREFIX = 'unix:';
/** What a backend reached over a Unix socket is called in its requests' Host header. */
const UNIX_SOCKET_ORIGIN = 'http://localhost';

/** The socket path of a `unix:/path` backend URL; undefined for an http(s) one. */
export function unixSocketPathOf(url: string): string | undefined {
  return url.startsWith(UNIX_PREFIX) ? url.slice(UNIX_PREFIX.length) : undefined;
}

function inProcessConnector(open: InProcessConnect): buildConnector.connector {
  return function connectInProcess(_options, callback): void {
    // Handed over on the next tick, as a TCP connect would be: undici does not take a socket
    // synchronously from within the dispatch that asked for it (the request would wait forever).
    process.nextTick(callback, null, open() as Socket);
  };
}
