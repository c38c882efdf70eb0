import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body exactly as sent (signatures are computed over it). */
  rawBody: string;
}

export interface FakeReply {
  status: number;
  body: unknown;
}

export interface FakeHttpServer {
  readonly origin: string;
  close(): Promise<void>;
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
  response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
}

/** A loopback JSON server for a fake provider: one function turns each request into a reply. */
export async function startFakeHttpServer(
  route: (request: FakeRequest) => FakeReply,
): Promise<FakeHttpServer> {
  const server: Server = createServer((request, response) => {
    readBody(request).then(
      (rawBody) =>
        send(
          response,
          route({
            method: request.method ?? 'GET',
            path: (request.url ?? '/').split('?')[0]!,
            headers: request.headers,
            rawBody,
          }),
        ),
      () => response.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
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
