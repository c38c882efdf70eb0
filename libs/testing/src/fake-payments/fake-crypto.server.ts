import { createHash, randomUUID } from 'node:crypto';
import { checkoutPage, notifyShop, type CheckoutAction, type FakeCheckoutOptions } from './fake-checkout';
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
  /** Where the payer goes back after paying, and after not paying. */
  url_success?: string;
  url_return?: string;
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

/** The payer's choices on the fake invoice page (an unpaid invoice expires as `cancel`). */
const INVOICE_ACTIONS: readonly CheckoutAction<FakeCryptoStatus>[] = [
  { name: 'paid', label: 'Pay in full', status: 'paid', notifications: 1 },
  { name: 'wrong-amount', label: 'Pay too little (underpaid)', status: 'wrong_amount', notifications: 1 },
  { name: 'cancel', label: 'Let the invoice expire unpaid', status: 'cancel', notifications: 1 },
  { name: 'paid-notify-twice', label: 'Pay in full (webhook sent twice)', status: 'paid', notifications: 2 },
  {
    name: 'paid-notify-later',
    label: 'Pay in full (webhook comes later)',
    status: 'paid',
    notifications: 1,
    late: true,
  },
];

const stringField = (body: Record<string, unknown>, name: string): Record<string, string> =>
  typeof body[name] === 'string' ? { [name]: body[name] } : {};

/**
 * A crypto invoice API in the style of Heleket / Cryptomus on a loopback port: `POST /v1/payment`
 * requires the `merchant` header and `sign` = md5(base64(raw body) + API key); webhooks carry the
 * signature over the rest of their body in `sign`. The invoice's url is a page where the payer
 * pays, underpays or lets it expire; the page then posts the signed webhook to the invoice's
 * url_callback and sends the payer to url_success (paid) or url_return.
 */
export async function startFakeCrypto(
  credentials: { merchantId: string; apiKey: string } = { merchantId: randomUUID(), apiKey: randomUUID() },
  checkout: FakeCheckoutOptions = {},
): Promise<FakeCrypto> {
  const invoices = new Map<string, FakeCryptoInvoice>();
  let origin = '';

  const log = checkout.log ?? (() => undefined);
  /** `GET /pay/<uuid>` shows the invoice; `POST /pay/<uuid>/<action>` is the payer's choice. */
  const invoiceRoute = async (request: FakeRequest): Promise<FakeReply> => {
    const [, , uuid, actionName] = request.path.split('/');
    const invoice = invoices.get(uuid ?? '');
    if (!invoice) return { status: 404, html: '<p>No such invoice</p>' };
    const basePath = `/pay/${invoice.uuid}`;
    if (request.method === 'GET' && actionName === undefined) {
      return checkoutPage(
        `Fake crypto invoice: ${invoice.amount} ${invoice.currency}`,
        invoice.order_id,
        basePath,
        invoice.status === 'check' ? INVOICE_ACTIONS : [],
      );
    }
    const action = INVOICE_ACTIONS.find((candidate) => candidate.name === actionName);
    if (request.method !== 'POST' || !action) return { status: 404, html: '<p>Unknown action</p>' };
    if (invoice.status === 'check') {
      const body = settle(invoice.uuid, action.status);
      await notifyShop(
        invoice.url_callback,
        () => body,
        action.notifications,
        action.late ? (checkout.lateNotificationMs ?? 5000) : undefined,
        log,
      );
    }
    const back = invoice.status === 'paid' ? invoice.url_success : invoice.url_return;
    return back
      ? { status: 303, location: back }
      : { status: 200, html: `<p>The invoice is ${invoice.status}</p>` };
  };

  const route = (request: FakeRequest): FakeReply | Promise<FakeReply> => {
    if (request.path.startsWith('/pay/')) return invoiceRoute(request);
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
      ...stringField(body, 'url_callback'),
      ...stringField(body, 'url_success'),
      ...stringField(body, 'url_return'),
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

  const sign = (body: Record<string, unknown>, apiKey = credentials.apiKey) => {
    const { sign: _previous, ...unsigned } = body;
    return { ...unsigned, sign: md5Sign(phpJson(unsigned), apiKey) };
  };
  function settle(uuid: string, status: FakeCryptoStatus): Record<string, unknown> {
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
  }

  const server = await startFakeHttpServer(route, checkout);
  origin = server.origin;

  return {
    apiUrl: `${server.origin}/v1`,
    merchantId: credentials.merchantId,
    apiKey: credentials.apiKey,
    invoices: () => [...invoices.values()],
    settle,
    sign,
    close: () => server.close(),
  };
}
