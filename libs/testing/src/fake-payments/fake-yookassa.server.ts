import { randomUUID } from 'node:crypto';
import { checkoutPage, notifyShop, type CheckoutAction, type FakeCheckoutOptions } from './fake-checkout';
import {
  parseJson,
  startFakeHttpServer,
  type FakeJsonReply,
  type FakeReply,
  type FakeRequest,
} from './fake-http';

export type FakeYookassaStatus = 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';

interface Amount {
  value: string;
  currency: string;
}

export interface FakeYookassaPayment {
  id: string;
  status: FakeYookassaStatus;
  amount: Amount;
  paid: boolean;
  description?: string;
  metadata?: Record<string, string>;
  /** The request body the shop sent, receipt included. */
  request: Record<string, unknown>;
}

export interface FakeYookassaRefund {
  id: string;
  payment_id: string;
  status: 'succeeded';
  amount: Amount;
}

export interface FakeYookassa {
  /** The API base, for YOOKASSA_API_URL: `http://127.0.0.1:<port>/v3`. */
  readonly apiUrl: string;
  readonly shopId: string;
  readonly secretKey: string;
  payments(): FakeYookassaPayment[];
  /** Every refund made, by the shop's API or its back office. */
  refunds(): FakeYookassaRefund[];
  /** The payer paid (`succeeded`) or gave up (`canceled`). */
  setStatus(paymentId: string, status: FakeYookassaStatus): void;
  /** A refund of `amount` (default: all that is left), as the shop's back office would make. */
  refund(paymentId: string, amount?: string): FakeYookassaRefund;
  /** The body YooKassa POSTs to the shop's notification URL for the object's current state. */
  notification(
    event: 'payment.succeeded' | 'payment.canceled' | 'payment.waiting_for_capture' | 'refund.succeeded',
    objectId: string,
  ): unknown;
  close(): Promise<void>;
}

const error = (status: number, code: string, description: string): FakeJsonReply => ({
  status,
  body: { type: 'error', id: randomUUID(), code, description },
});

/** The payer's choices on the fake checkout page. */
const CHECKOUT_ACTIONS: readonly CheckoutAction<FakeYookassaStatus>[] = [
  { name: 'pay', label: 'Pay', status: 'succeeded', notifications: 1 },
  { name: 'cancel', label: 'Cancel the payment', status: 'canceled', notifications: 1 },
  { name: 'pay-notify-twice', label: 'Pay (notification sent twice)', status: 'succeeded', notifications: 2 },
  {
    name: 'pay-notify-later',
    label: 'Pay (notification comes later)',
    status: 'succeeded',
    notifications: 1,
    late: true,
  },
];

/**
 * YooKassa's API v3 on a loopback port: Basic authentication with the shop id and secret key, an
 * Idempotence-Key on every POST (the same key answers the same object), payments with a redirect
 * confirmation, refunds, and the notification bodies YooKassa sends (which carry no signature).
 * Its confirmation_url is a page where the payer pays or cancels; the page then notifies
 * `checkout.notificationUrl` (when given) and sends the payer back to the return_url.
 */
export async function startFakeYookassa(
  credentials: { shopId: string; secretKey: string } = {
    shopId: '100500',
    secretKey: `test_${randomUUID()}`,
  },
  checkout: FakeCheckoutOptions = {},
): Promise<FakeYookassa> {
  const payments = new Map<string, FakeYookassaPayment>();
  const refunds = new Map<string, FakeYookassaRefund>();
  const byIdempotenceKey = new Map<string, unknown>();
  const expectedAuth = `Basic ${Buffer.from(`${credentials.shopId}:${credentials.secretKey}`).toString('base64')}`;
  let origin = '';

  const paymentView = (payment: FakeYookassaPayment) => ({
    id: payment.id,
    status: payment.status,
    paid: payment.paid,
    amount: payment.amount,
    description: payment.description,
    metadata: payment.metadata,
    created_at: new Date().toISOString(),
    test: true,
    ...(payment.status === 'pending'
      ? { confirmation: { type: 'redirect', confirmation_url: `${origin}/checkout/${payment.id}` } }
      : {}),
  });

  const createPayment = (body: Record<string, unknown>): FakeJsonReply => {
    const amount = body['amount'] as Amount | undefined;
    const confirmation = body['confirmation'] as { type?: string; return_url?: string } | undefined;
    const receipt = body['receipt'] as { customer?: { email?: string } } | undefined;
    if (!amount?.value || !amount.currency) return error(400, 'invalid_request', 'amount is required');
    if (confirmation?.type !== 'redirect' || !confirmation.return_url) {
      return error(400, 'invalid_request', 'confirmation.return_url is required for redirect');
    }
    if (!receipt?.customer?.email) return error(400, 'invalid_request', 'receipt.customer.email is required');
    const payment: FakeYookassaPayment = {
      id: randomUUID(),
      status: 'pending',
      paid: false,
      amount,
      description: body['description'] as string | undefined,
      metadata: body['metadata'] as Record<string, string> | undefined,
      request: body,
    };
    payments.set(payment.id, payment);
    return { status: 200, body: paymentView(payment) };
  };

  /** Kopecks refunded so far per payment: YooKassa refuses refunds beyond what was paid. */
  const refundedKopecks = new Map<string, number>();
  const kopecks = (value: string) => {
    const [whole = '0', fraction = ''] = value.split('.');
    return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  };
  const rubles = (value: number) => (value / 100).toFixed(2);

  const createRefund = (body: Record<string, unknown>): FakeJsonReply => {
    const payment = payments.get(String(body['payment_id']));
    if (!payment || payment.status !== 'succeeded')
      return error(400, 'invalid_request', 'payment cannot be refunded');
    const done = refundedKopecks.get(payment.id) ?? 0;
    const left = kopecks(payment.amount.value) - done;
    const amount = (body['amount'] as Amount | undefined) ?? {
      value: rubles(left),
      currency: payment.amount.currency,
    };
    if (!/^\d+(\.\d{1,2})?$/.test(amount.value) || kopecks(amount.value) <= 0) {
      return error(400, 'invalid_request', 'amount.value is invalid');
    }
    if (kopecks(amount.value) > left) {
      return error(400, 'invalid_request', 'the refund amount exceeds the amount left to refund');
    }
    refundedKopecks.set(payment.id, done + kopecks(amount.value));
    const refund: FakeYookassaRefund = {
      id: randomUUID(),
      payment_id: payment.id,
      status: 'succeeded',
      amount,
    };
    refunds.set(refund.id, refund);
    return { status: 200, body: refund };
  };

  const log = checkout.log ?? (() => undefined);
  /** `GET /checkout/<id>` shows the page; `POST /checkout/<id>/<action>` is the payer's choice. */
  const checkoutRoute = async (request: FakeRequest): Promise<FakeReply> => {
    const [, , id, actionName] = request.path.split('/');
    const payment = payments.get(id ?? '');
    if (!payment) return { status: 404, html: '<p>No such payment</p>' };
    const basePath = `/checkout/${payment.id}`;
    if (request.method === 'GET' && actionName === undefined) {
      return checkoutPage(
        `Fake YooKassa: ${payment.amount.value} ${payment.amount.currency}`,
        payment.description ?? payment.id,
        basePath,
        payment.status === 'pending' ? CHECKOUT_ACTIONS : [],
      );
    }
    const action = CHECKOUT_ACTIONS.find((candidate) => candidate.name === actionName);
    if (request.method !== 'POST' || !action) return { status: 404, html: '<p>Unknown action</p>' };
    if (payment.status === 'pending') {
      payment.status = action.status;
      payment.paid = action.status === 'succeeded';
      const event = action.status === 'succeeded' ? 'payment.succeeded' : 'payment.canceled';
      await notifyShop(
        checkout.notificationUrl,
        () => ({ type: 'notification', event, object: paymentView(payment) }),
        action.notifications,
        action.late ? (checkout.lateNotificationMs ?? 5000) : undefined,
        log,
      );
    }
    const confirmation = payment.request['confirmation'] as { return_url: string };
    return { status: 303, location: confirmation.return_url };
  };

  const route = (request: FakeRequest): FakeReply | Promise<FakeReply> => {
    if (request.path.startsWith('/checkout/')) return checkoutRoute(request);
    // Before the credentials: a browser on the checkout page asks for /favicon.ico.
    if (!request.path.startsWith('/v3/')) return error(404, 'not_found', 'unknown path');
    if (request.headers.authorization !== expectedAuth)
      return error(401, 'invalid_credentials', 'Authentication error');
    const [, version, collection, id] = request.path.split('/');
    if (version !== 'v3') return error(404, 'not_found', 'unknown path');
    if (request.method === 'POST' && !id) {
      const key = request.headers['idempotence-key'];
      if (typeof key !== 'string' || key === '')
        return error(400, 'invalid_request', 'Idempotence-Key header is required');
      const body = parseJson(request.rawBody);
      if (typeof body !== 'object' || body === null)
        return error(400, 'invalid_request', 'JSON body expected');
      const remembered = byIdempotenceKey.get(`${collection}:${key}`);
      if (remembered) return { status: 200, body: remembered };
      const reply =
        collection === 'payments'
          ? createPayment(body as Record<string, unknown>)
          : collection === 'refunds'
            ? createRefund(body as Record<string, unknown>)
            : error(404, 'not_found', 'unknown path');
      if (reply.status === 200) byIdempotenceKey.set(`${collection}:${key}`, reply.body);
      return reply;
    }
    if (request.method === 'GET' && id) {
      if (collection === 'payments') {
        const payment = payments.get(id);
        return payment
          ? { status: 200, body: paymentView(payment) }
          : error(404, 'not_found', 'payment not found');
      }
      if (collection === 'refunds') {
        const refund = refunds.get(id);
        return refund ? { status: 200, body: refund } : error(404, 'not_found', 'refund not found');
      }
    }
    return error(404, 'not_found', 'unknown path');
  };

  const server = await startFakeHttpServer(route, checkout);
  origin = server.origin;
  const paymentOrFail = (id: string): FakeYookassaPayment => {
    const payment = payments.get(id);
    if (!payment) throw new Error(`the fake YooKassa has no payment ${id}`);
    return payment;
  };

  return {
    apiUrl: `${server.origin}/v3`,
    shopId: credentials.shopId,
    secretKey: credentials.secretKey,
    payments: () => [...payments.values()],
    refunds: () => [...refunds.values()],
    setStatus(paymentId, status) {
      const payment = paymentOrFail(paymentId);
      payment.status = status;
      payment.paid = status === 'succeeded' || status === 'waiting_for_capture';
    },
    refund(paymentId, amount) {
      const payment = paymentOrFail(paymentId);
      const reply = createRefund({
        payment_id: paymentId,
        ...(amount ? { amount: { value: amount, currency: payment.amount.currency } } : {}),
      });
      if (reply.status !== 200) throw new Error(`the fake YooKassa cannot refund ${paymentId}`);
      return reply.body as FakeYookassaRefund;
    },
    notification(event, objectId) {
      const object = event.startsWith('refund.')
        ? (refunds.get(objectId) ?? { id: objectId })
        : payments.has(objectId)
          ? paymentView(paymentOrFail(objectId))
          : { id: objectId, status: 'succeeded', paid: true, amount: { value: '1000.00', currency: 'RUB' } };
      return { type: 'notification', event, object };
    },
    close: () => server.close(),
  };
}
