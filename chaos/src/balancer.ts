// A TCP balancer in front of a service's replicas, as a Kubernetes Service is (deploy/k8s): new
// connections go round-robin to the replicas whose readiness probe passes; a refused connection is
// tried on the next replica. Connections already open stay with their replica, as with kube-proxy.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface Replica {
  name: string;
  port: number;
}

export interface BalancerOptions {
  name: string;
  port: number;
  replicas: Replica[];
  /** Probe period; a replica failing `failureThreshold` probes in a row is left out until one passes. */
  probeEveryMs?: number;
  probeTimeoutMs?: number;
  failureThreshold?: number;
}

export class ReplicaBalancer {
  private server?: Server;
  private timer?: NodeJS.Timeout;
  private next = 0;
  private readonly failures = new Map<string, number>();
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: BalancerOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  async start(): Promise<void> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.port, '127.0.0.1', () => resolve());
    });
    const every = this.options.probeEveryMs ?? 1000;
    this.timer = setInterval(() => void this.probeAll(), every);
    this.timer.unref();
  }

  /** Ready replicas first in round-robin order, then the others: with none ready, still try them all. */
  private order(): Replica[] {
    const { replicas } = this.options;
    const start = this.next++ % replicas.length;
    const rotated = [...replicas.slice(start), ...replicas.slice(0, start)];
    const threshold = this.options.failureThreshold ?? 2;
    const ready = rotated.filter((r) => (this.failures.get(r.name) ?? 0) < threshold);
    return [...ready, ...rotated.filter((r) => !ready.includes(r))];
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.once('close', () => this.sockets.delete(client));
    client.pause();
    const candidates = this.order();
    const attempt = (index: number) => {
      const replica = candidates[index];
      if (!replica) {
        client.destroy();
        return;
      }
      const upstream = connect(replica.port, '127.0.0.1');
      const refused = () => attempt(index + 1);
      upstream.once('error', refused);
      upstream.once('connect', () => {
        upstream.off('error', refused);
        this.sockets.add(upstream);
        upstream.once('close', () => this.sockets.delete(upstream));
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
    };
    attempt(0);
  }

  private async probeAll(): Promise<void> {
    const timeout = this.options.probeTimeoutMs ?? 1000;
    await Promise.all(
      this.options.replicas.map(async (replica) => {
        let ok = false;
        try {
          const res = await fetch(`http://127.0.0.1:${replica.port}/health/ready`, {
            signal: AbortSignal.timeout(timeout),
          });
          ok = res.ok;
          await res.body?.cancel();
        } catch {
          ok = false;
        }
        this.failures.set(replica.name, ok ? 0 : (this.failures.get(replica.name) ?? 0) + 1);
      }),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
