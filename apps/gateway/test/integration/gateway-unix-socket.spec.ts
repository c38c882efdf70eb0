import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { BACKEND_SERVICES } from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import { startGateway } from '../../src';
import { callGateway, deadUrl } from './recording-backend';

const SECRET = 'gateway-unix-socket-secret-0123456789abcdef';

/** A stand-in for relay that listens on a Unix socket only, as the launcher's relay is reached. */
async function relayOnSocket(path: string, answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(answer);
  await new Promise<void>((done) => server.listen(path, done));
  return server;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

/** Reads the body and answers what the relay stand-in saw: the path, the body and the caller's headers. */
function echo(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        path: req.url,
        body: Buffer.concat(chunks).toString(),
        forwardedFor: req.headers['x-forwarded-for'],
      }),
    );
  });
}

describe('gateway: relay on a Unix socket (RELAY_URL=unix:<path>)', () => {
  const client = new Agent({ keepAliveTimeout: 1000 });
  let dir: string;
  let socketPath: string;
  let relay: Server | undefined;
  let gateway: RunningService;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-unix-'));
    socketPath = join(dir, 'relay.sock');
    // Every other backend is unreachable: only relay's socket serves.
    const dead = await deadUrl();
    const env: Record<string, string> = {
      TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      GATEWAY_MODEL_HEADERS_TIMEOUT_MS: '1000',
    };
    for (const service of BACKEND_SERVICES) env[`${service.toUpperCase()}_URL`] = dead;
    env['RELAY_URL'] = `unix:${socketPath}`;
    gateway = await startGateway(env);
  });

  afterEach(async () => {
    if (relay) await close(relay);
    relay = undefined;
  });

  afterAll(async () => {
    await gateway.close();
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  const chat = (body = '{"model":"gpt-4o-mini","messages":[]}') =>
    callGateway(client, gateway, '/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
      body,
    });

  it('forwards a /v1 call through the socket, body and caller address included', async () => {
    relay = await relayOnSocket(socketPath, echo);

    const answer = await chat('{"model":"m","messages":[{"role":"user","content":"hi"}]}');

    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({
      path: '/v1/chat/completions',
      body: '{"model":"m","messages":[{"role":"user","content":"hi"}]}',
      forwardedFor: '127.0.0.1',
    });
  });

  it('answers 502 in the caller protocol while nothing listens on the socket, and serves again once relay is back', async () => {
    const down = await chat();
    expect(down.status).toBe(502);
    expect(down.json()).toMatchObject({ error: { message: expect.stringContaining('relay') } });

    relay = await relayOnSocket(socketPath, echo);
    expect((await chat()).status).toBe(200);

    // A relay restart: the pool's open connections end with it, the next call opens new ones.
    await close(relay);
    relay = await relayOnSocket(socketPath, echo);
    expect((await chat()).status).toBe(200);
  });

  it('answers 504 when relay on the socket does not begin its answer in time', async () => {
    relay = await relayOnSocket(socketPath, () => undefined);

    const answer = await chat();

    expect(answer.status).toBe(504);
    expect(answer.json()).toMatchObject({ error: { message: expect.stringContaining('relay') } });
  });
});
