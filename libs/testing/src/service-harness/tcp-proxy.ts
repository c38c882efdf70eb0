import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpTarget {
  host: string;
  port: number;
}

/**
 * A TCP proxy on 127.0.0.1 in front of one server (PostgreSQL, Redis, …), to take that server away
 * from a service and give it back without touching the server itself. `cut()` destroys every open
 * connection and resets each new one at once, as a crashed server's host would; `restore()` lets
 * connections through again.
 */
export class TcpProxy {
  private readonly open = new Set<Socket>();
  private isCut = false;
  private refusedCount = 0;

  private constructor(
    private readonly server: Server,
    private readonly target: TcpTarget,
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  /** Listens on a free port of 127.0.0.1 and forwards to `target`. */
  static async start(target: TcpTarget): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, target);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return proxy;
  }

  /** A proxy in front of the server a URL names (`postgres://user@host:port/db`, `redis://…`). */
  static forUrl(url: string): Promise<TcpProxy> {
    const parsed = new URL(url);
    if (parsed.port === '') throw new Error(`${parsed.protocol} URL without a port: name the port`);
    return TcpProxy.start({ host: parsed.hostname, port: Number(parsed.port) });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Connections reset because they came while the proxy was cut. */
  get refused(): number {
    return this.refusedCount;
  }

  /** Destroys every open connection; until `restore()`, each new one is reset as it arrives. */
  cut(): void {
    this.isCut = true;
    for (const socket of this.open) socket.resetAndDestroy();
    this.open.clear();
  }

  restore(): void {
    this.isCut = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  private accept(client: Socket): void {
    client.on('error', () => client.destroy());
    if (this.isCut) {
      this.refusedCount += 1;
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    const pair = [client, upstream];
    for (const socket of pair) {
      this.open.add(socket);
      socket.on('error', () => pair.forEach((s) => s.destroy()));
      socket.on('close', () => {
        this.open.delete(socket);
        pair.forEach((s) => s.destroy());
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
