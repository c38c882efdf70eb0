import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body exactly as sent (signatures are computed over it). */
  rawBody: string;
}

export interface FakeJsonReply {
  status: number;
  body: unknown;
}

/** A JSON answer, an HTML page (the provider's checkout) or a redirect back to the shop. */
export type FakeReply = FakeJsonReply | { status: number; html: string } | { status: 303; location: string };

export interface FakeHttpServer {
  readonly origin: string;
  close(): Promise<void>;
}

export interface FakeListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, reply: FakeReply): void {
  if ('location' in reply) {
    response.writeHead(reply.status, { location: reply.location }).end();
  } else if ('html' in reply) {
    response.writeHead(reply.status, { 'content-type': 'text/html; charset=utf-8' }).end(reply.html);
  } else {
    response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  }
}

/** A loopback server for a fake provider: one function turns each request into a reply. */
export async function startFakeHttpServer(
  route: (request: FakeRequest) => FakeReply | Promise<FakeReply>,
  listen: FakeListenOptions = {},
): Promise<FakeHttpServer> {
  const server: Server = createServer((request, response) => {
    readBody(request)
      .then((rawBody) =>
        route({
          method: request.method ?? 'GET',
          path: (request.url ?? '/').split('?')[0]!,
          headers: request.headers,
          rawBody,
        }),
      )
      .then(
        (reply) => send(response, reply),
        () => response.destroy(),
      );
  });
  const host = listen.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
