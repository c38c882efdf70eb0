import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LoadDriver } from './load';
import type { Customer } from './seed';
import type { WebSession } from './web-session';

/** A gateway that serves every call and accepts every payment notification, writing them down. */
async function aGateway(): Promise<{ url: string; notified: string[]; server: Server }> {
  const notified: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/api/user/payment/webhook/yookassa') notified.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.startsWith('/v1/') ? '{"choices":[]}' : '{"type":"done"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, notified, server };
}

describe('chaos load', () => {
  let gateway: Awaited<ReturnType<typeof aGateway>>;
  beforeEach(async () => (gateway = await aGateway()));
  afterEach(() => new Promise((resolve) => gateway.server.close(resolve)));

  it('delivers the notifications of a top-up whose creation was still under way when the load stopped', async () => {
    let creationStarted!: () => void;
    const started = new Promise<void>((resolve) => (creationStarted = resolve));
    let finishCreation!: () => void;
    const created = new Promise<void>((resolve) => (finishCreation = resolve));
    const session = {
      call: async () => {
        creationStarted();
        await created;
        return { id: 312, quota: 555_555, bonus_quota: 0, pay_url: 'http://yookassa.test/pay/p-312' };
      },
    } as unknown as WebSession;
    const customer: Customer = {
      name: 'c1',
      userId: 3,
      session,
      apiKey: 'sk-c1',
      profile: 'openai',
      quota: 1,
    };
    const load = new LoadDriver({
      gatewayUrl: gateway.url,
      customers: [customer],
      chatUser: { call: async () => ({ id: 1 }) as never, headers: () => ({}), refresh: async () => {} },
      yookassa: {
        setStatus: () => {},
        notification: (event: string, id: string) => ({ event, object: { id } }) as never,
      },
      callTimeoutMs: 5000,
      topUpEveryMs: 10,
    });

    load.start();
    await started;
    const stopped = load.stop(10_000);
    // Longer than the provider's idle poll: it would have found nothing left to deliver by then.
    setTimeout(finishCreation, 600);
    await stopped;

    expect(load.records.topUps).toMatchObject([{ paymentId: 312, paidAtProvider: true }]);
    // Delivered twice, as YooKassa may: the second must change nothing.
    expect(gateway.notified.map((body) => JSON.parse(body).object.id)).toEqual(['p-312', 'p-312']);
    expect(load.records.notes).not.toContainEqual(expect.stringMatching(/never accepted/));
  });
});
