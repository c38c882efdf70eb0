import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { ChatConfig } from '../config';
import { RelayChatClient, RelayRefusal } from './relay-chat.client';

/** A relay that takes the request and dies before answering, as a killed replica behind a balancer does. */
async function dyingRelay(): Promise<{ server: Server; url: string }> {
  const server = createServer((socket) => socket.once('data', () => socket.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('RelayChatClient when relay goes away', () => {
  let relay: { server: Server; url: string };
  let client: RelayChatClient;

  beforeEach(async () => {
    relay = await dyingRelay();
    client = new RelayChatClient({
      TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
      RELAY_URL: relay.url,
    } as ChatConfig);
  });
  afterEach(async () => {
    await client.onModuleDestroy();
    await new Promise((resolve) => relay.server.close(resolve));
  });

  const completion = (signal: AbortSignal) =>
    client.complete({
      userId: 7,
      chatId: 3,
      requestId: 'chat-3-1',
      body: { model: 'm', messages: [] },
      signal,
    });

  it('refuses with 502 when relay dies before answering, instead of failing with a socket error', async () => {
    const refused = await completion(new AbortController().signal).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RelayRefusal);
    expect(refused).toMatchObject({ status: 502, message: expect.stringContaining('could not be reached') });

    await expect(client.models(7)).rejects.toMatchObject({ name: 'RelayRefusal', status: 502 });
  });

  it('leaves the browser’s own stop an abort', async () => {
    const stop = new AbortController();
    stop.abort();
    const stopped = await completion(stop.signal).catch((error: unknown) => error);
    expect(stopped).not.toBeInstanceOf(RelayRefusal);
    expect(stopped).toMatchObject({ name: 'AbortError' });
  });
});
