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
  close(): Promise<void>;
}

export type Env = Readonly<Record<string, string | undefined>>;

export type StartService = (env: Env, runtime: ServiceRuntime) => Promise<RunningService>;
