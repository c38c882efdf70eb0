import { createHash, randomUUID } from 'node:crypto';
import { parseJson, startFakeHttpServer, type FakeReply, type FakeRequest } from './fake-http';

/** Heleket / Cryptomus payment statuses the fake can be moved to. */
export type FakeCryptoStatus =
  'check' | 'paid' | 'paid_over' | 'wrong_amount' | 'cancel' | 'fail' | 'refund_paid';

export interface FakeCryptoInvoice {
  uuid: string;
  order_id: string;
  amount: string;
  currency: string;
  url_callback?: string;
  status: FakeCryptoStatus;
}

export interface FakeCrypto {
  /** The API base, for CRYPTO_API_URL: `http://127.0.0.1:<port>/v1`. */
  readonly apiUrl: string;
  readonly merchantId: string;
  readonly apiKey: string;
  invoices(): FakeCryptoInvoice[];
  /** Moves the invoice to `status` and returns the webhook body the provider sends for it, signed. */
  settle(uuid: string, status: FakeCryptoStatus): Record<string, unknown>;
  /** Signs any body as the provider does (md5(base64(json) + key) in `sign`), e.g. to forge one with another key. */
  sign(body: Record<string, unknown>, apiKey?: string): Record<string, unknown>;
  close(): Promise<void>;
}

/** PHP's json_encode, as the provider writes JSON: "/" escaped as "\/". */
const phpJson = (value: unknown): string => JSON.stringify(value).replace(/\//g, '\\/');
const md5Sign = (json: string, apiKey: string): string =>
  createHash('md5')
    .update(Buffer.from(json).toString('base64') + apiKey)
    .digest('hex');

/**
 * A crypto invoice API in the style of Heleket / Cryptomus on a loopback port: `POST /v1/payment`
 * requires the `merchant` header and `sign` = md5(base64(raw body) + API key); webhooks carry the
 * signature over the rest of their body in `sign`.
 */
export async function startFakeCrypto(
  credentials: { merchantId: string; apiKey: string } = { merchantId: randomUUID(), apiKey: randomUUID() },
): Promise<FakeCrypto> {
  const invoices = new Map<string, FakeCryptoInvoice>();
  let origin = '';

  const route = (request: FakeRequest): FakeReply => {
    if (request.headers['merchant'] !== credentials.merchantId) {
      return { status: 401, body: { state: 1, message: 'Merchant not found' } };
    }
    if (request.headers['sign'] !== md5Sign(request.rawBody, credentials.apiKey)) {
      return { status: 401, body: { state: 1, message: 'Invalid Sign' } };
    }
    const body = parseJson(request.rawBody) as Record<string, unknown> | undefined;
    if (request.method !== 'POST' || request.path !== '/v1/payment' || !body) {
      return { status: 404, body: { state: 1, message: 'Not found' } };
    }
    if (
      typeof body['amount'] !== 'string' ||
      typeof body['currency'] !== 'string' ||
      typeof body['order_id'] !== 'string'
    ) {
      return {
        status: 422,
        body: { state: 1, errors: { amount: ['amount, currency and order_id are required'] } },
      };
    }
    const existing = [...invoices.values()].find((invoice) => invoice.order_id === body['order_id']);
    const invoice: FakeCryptoInvoice = existing ?? {
      uuid: randomUUID(),
      order_id: body['order_id'],
      amount: body['amount'],
      currency: body['currency'],
      ...(typeof body['url_callback'] === 'string' ? { url_callback: body['url_callback'] } : {}),
      status: 'check',
    };
    invoices.set(invoice.uuid, invoice);
    return {
      status: 200,
      body: {
        state: 0,
        result: {
          uuid: invoice.uuid,
          order_id: invoice.order_id,
          amount: invoice.amount,
          currency: invoice.currency,
          url: `${origin}/pay/${invoice.uuid}`,
          payment_status: invoice.status,
          status: invoice.status,
          is_final: false,
        },
      },
    };
  };

  const server = await startFakeHttpServer(route);
  origin = server.origin;
  const sign = (body: Record<string, unknown>, apiKey = credentials.apiKey) => {
    const { sign: _previous, ...unsigned } = body;
    return { ...unsigned, sign: md5Sign(phpJson(unsigned), apiKey) };
  };

  return {
    apiUrl: `${server.origin}/v1`,
    merchantId: credentials.merchantId,
    apiKey: credentials.apiKey,
    invoices: () => [...invoices.values()],
    settle(uuid, status) {
      const invoice = invoices.get(uuid);
      if (!invoice) throw new Error(`the fake crypto provider has no invoice ${uuid}`);
      invoice.status = status;
      return sign({
        type: 'payment',
        uuid: invoice.uuid,
        order_id: invoice.order_id,
        amount: invoice.amount,
        payment_amount: invoice.amount,
        merchant_amount: invoice.amount,
        network: 'tron',
        currency: invoice.currency,
        payer_currency: 'USDT',
        status,
        is_final: status !== 'check',
        txid: randomUUID().replace(/-/g, ''),
        additional_data: null,
      });
    },
    sign,
    close: () => server.close(),
  };
}
