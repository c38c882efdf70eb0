import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type Dispatcher } from 'undici';
import { handedOverClientOf, type HandedOverClient, type RunningService } from '@tollgate/runtime';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The client as the gateway resolved it, on a request it handed over in-process (RunningService.handle). */
  handedOver?: HandedOverClient;
}

/** Answers a request itself instead of the default echo; the request is already recorded (without body). */
export type CustomHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A stand-in for one backend service: records every request it receives and, unless a path has a
 * custom handler, reads the whole body and answers 200 with JSON naming itself.
 */
export class RecordingBackend {
  readonly received: ReceivedRequest[] = [];
  private readonly handlers = new Map<string, CustomHandler>();

  private constructor(
    readonly name: string,
    private readonly server: Server,
  ) {}

  static async start(name: string): Promise<RecordingBackend> {
    const server = createServer();
    const backend = new RecordingBackend(name, server);
    server.on('request', (req, res) => backend.serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return backend;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers requests whose path (without query) is exactly `path` with `handler`. */
  handlePath(path: string, handler: CustomHandler): void {
    this.handlers.set(path, handler);
  }

  /** Serves a request another server received, as RunningService.handle does (embedded mode's relay). */
  handle(req: IncomingMessage, res: ServerResponse): void {
    this.server.emit('request', req, res);
  }

  reset(): void {
    this.received.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const handedOver = handedOverClientOf(req);
    const record: ReceivedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.alloc(0),
      ...(handedOver ? { handedOver } : {}),
    };
    this.received.push(record);
    const custom = this.handlers.get((req.url ?? '').split('?')[0] ?? '');
    if (custom) {
      custom(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      record.body = Buffer.concat(chunks);
      // As the services answer: under the request id the gateway sent (the platform's request context).
      const id = req.headers['x-request-id'];
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-backend': this.name,
        ...(typeof id === 'string' ? { 'x-request-id': id } : {}),
      });
      res.end(JSON.stringify({ backend: this.name }));
    });
  }
}

/** A loopback URL where nothing listens (a port that was free a moment ago). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** GETs `url`, and hangs up as soon as the first bytes of the answer's body arrive. */
export function readFirstChunkThenHangUp(url: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = httpRequest(url, { agent: false }, (res: IncomingMessage) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end();
  });
}

export type CallOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method?: Dispatcher.HttpMethod;
};

/** Calls `path` on a gateway through `dispatcher` and reads the whole answer. */
export async function callGateway(
  dispatcher: Dispatcher,
  target: RunningService,
  path: string,
  options: CallOptions = {},
) {
  const response = await request(`${target.url}${path}`, { dispatcher, ...options });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    text,
    json: () => JSON.parse(text) as unknown,
  };
}
