import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Dispatcher } from 'undici';
import { compileRouteTable } from '@tollgate/contracts';
import type { ClientAddressResolver } from './client/client-address';
import { registerGatewayRoutes, type GatewayRouteDeps } from './gateway.routes';
import { ClientRateLimiter } from './limits/client-rate-limiter';
import type { CorsPolicy } from './limits/cors-policy';
import type { BackendPools } from './proxy/backend-pools';
import type { SessionStep } from './session/session-step';

/** What the stand-in pool was handed for each call; it answers every call with 200 "ok". */
const dispatched: Dispatcher.DispatchOptions[] = [];

const standInPool = {
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    dispatched.push(options);
    const body = options.body as Buffer | Readable | null;
    const answer = () => {
      handler.onConnect!(() => undefined);
      handler.onHeaders!(200, [Buffer.from('content-type'), Buffer.from('text/plain')], () => undefined, '');
      handler.onData!(Buffer.from('ok'));
      handler.onComplete!([]);
    };
    if (body === null || Buffer.isBuffer(body)) answer();
    else body.on('data', () => undefined).once('end', answer);
    return true;
  },
};

let fastify: FastifyInstance;
let port: number;

beforeAll(async () => {
  fastify = Fastify();
  const deps: GatewayRouteDeps = {
    routes: compileRouteTable(),
    pools: { get: () => standInPool } as unknown as BackendPools,
    clientAddress: {
      resolve: () => ({ ip: '198.51.100.7', protocol: 'http' }),
    } as unknown as ClientAddressResolver,
    limiter: new ClientRateLimiter(0),
    keyedModelCallLimiter: new ClientRateLimiter(0),
    cors: { apply: () => false } as unknown as CorsPolicy,
    session: { decide: () => ({ kind: 'forward', headers: {} }) } as unknown as SessionStep,
    bodyLimitBytes: 1024 * 1024,
    apiBodyLimitBytes: 1024 * 1024,
    uploadBodyLimitBytes: 1024 * 1024,
    observe: () => undefined,
    onBackendError: () => undefined,
  };
  await registerGatewayRoutes(fastify, deps);
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  port = (fastify.server.address() as AddressInfo).port;
});

afterAll(() => fastify.close());

beforeEach(() => {
  dispatched.length = 0;
});

function post(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', reject);
    // Headers and body in one write, as a client's small call arrives.
    req.end(body);
  });
}

describe('the gateway forwarding a /v1 call', () => {
  it('hands the backend a small body that came with its headers as one Buffer, not the request stream', async () => {
    const body = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });

    const answer = await post(body);

    expect(answer).toEqual({ status: 200, text: 'ok' });
    expect(dispatched).toHaveLength(1);
    expect(Buffer.isBuffer(dispatched[0]!.body)).toBe(true);
    expect(String(dispatched[0]!.body)).toBe(body);
  });
});
