import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GENERATION_CALL, type GenerationResult } from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, verifyServiceToken } from '@tollgate/platform';
import type { ChatConfig } from '../config';
import { BillingGenerationClient, BillingUnavailable } from './billing-generation.client';

const SECRET = randomBytes(32).toString('hex');

const generation: GenerationResult = {
  id: 'chat-3-41',
  request_id: 'chat-3-41',
  model: 'm',
  upstream_model: 'm',
  token_id: null,
  created_at: 1,
  prompt_tokens: 11,
  completion_tokens: 5,
  cached_tokens: 0,
  quota: 4_200,
  latency_ms: 10,
  ttft_ms: 5,
  is_stream: true,
  status: 'client_aborted',
  finish_reason: null,
};

/** A billing that answers each request with `answer`; the requests it saw. */
async function fakeBilling(answer: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>) {
  const seen: { url: string; tokenValid: boolean }[] = [];
  const server: Server = createServer((req, res) => {
    const token = String(req.headers[SERVICE_TOKEN_HEADER] ?? '');
    void verifyServiceToken(token, SECRET, GENERATION_CALL.audience)
      .then(
        () => true,
        () => false,
      )
      .then(async (tokenValid) => {
        seen.push({ url: req.url!, tokenValid });
        await answer(req, res);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function closeBilling(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

describe('BillingGenerationClient', () => {
  let billing: Awaited<ReturnType<typeof fakeBilling>> | undefined;
  const clientOf = (url: string) =>
    new BillingGenerationClient({
      TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET,
      BILLING_URL: url,
    } as ChatConfig);

  afterEach(async () => {
    if (billing) await closeBilling(billing.server);
    billing = undefined;
  });

  it("asks for the user's call by its request id with a token for billing's generation audience", async () => {
    billing = await fakeBilling((_req, res) =>
      json(res, 200, { success: true, message: '', data: generation }),
    );
    expect(await clientOf(billing.url).generation(7, 'chat-3-41')).toEqual(generation);
    expect(billing.seen).toEqual([
      { url: '/internal/usage/users/7/generations/chat-3-41', tokenValid: true },
    ]);
  });

  it('answers undefined when billing has no such call yet', async () => {
    billing = await fakeBilling((_req, res) => json(res, 404, { success: false, message: 'No call' }));
    await expect(clientOf(billing.url).generation(7, 'chat-3-41')).resolves.toBeUndefined();
  });

  it('fails with BillingUnavailable on an error answer, an unexpected one, no answer in time, or no billing', async () => {
    billing = await fakeBilling((_req, res) => json(res, 503, { success: false, message: 'down' }));
    await expect(clientOf(billing.url).generation(7, 'a')).rejects.toBeInstanceOf(BillingUnavailable);

    await closeBilling(billing.server);
    billing = await fakeBilling((_req, res) => json(res, 200, { success: true, data: { quota: 'lots' } }));
    await expect(clientOf(billing.url).generation(7, 'a')).rejects.toBeInstanceOf(BillingUnavailable);

    await closeBilling(billing.server);
    billing = await fakeBilling(() => undefined); // never answers
    await expect(clientOf(billing.url).generation(7, 'a')).rejects.toBeInstanceOf(BillingUnavailable);

    await closeBilling(billing.server);
    const gone = billing.url;
    billing = undefined;
    await expect(clientOf(gone).generation(7, 'a')).rejects.toBeInstanceOf(BillingUnavailable);
  });
});
