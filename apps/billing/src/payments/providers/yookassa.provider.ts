import { Injectable } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import { z } from 'zod';
import type { BillingConfig } from '../../config';
import type { ProviderOutcome } from '../payment-status';
import {
  RejectedNotificationError,
  type Checkout,
  type CheckoutRequest,
  type PaymentProvider,
  type ProviderRefund,
  type RefundRequest,
  type VerifiedNotification,
} from './payment-provider.port';
import { callProviderJson, ProviderUnavailableError } from './provider-http';

const money = z.object({ value: z.string(), currency: z.string() });
const yookassaPayment = z.object({
  id: z.string().min(1),
  status: z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']),
  amount: money,
  confirmation: z.object({ confirmation_url: z.string().url().optional() }).passthrough().optional(),
});
const yookassaRefund = z.object({
  id: z.string().min(1),
  payment_id: z.string().min(1),
  status: z.enum(['pending', 'succeeded', 'canceled']),
  amount: money,
});
const notification = z.object({
  type: z.literal('notification'),
  event: z.string(),
  object: z
    .object({
      id: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[\w-]+$/),
    })
    .passthrough(),
});

const OUTCOMES: Record<z.infer<typeof yookassaPayment>['status'], Exclude<ProviderOutcome, 'refunded'>> = {
  pending: 'pending',
  // Payments are created with capture: true, so this state is only passed through.
  waiting_for_capture: 'pending',
  succeeded: 'succeeded',
  canceled: 'canceled',
};

/**
 * YooKassa API v3: card payments in rubles with a redirect confirmation and a receipt mailed to the
 * payer. Notifications carry no signature, so one is trusted only after the payment (or refund)
 * has been read back from the API with the shop's credentials.
 */
@Injectable()
export class YookassaProvider implements PaymentProvider {
  readonly name = 'yookassa' as const;

  constructor(@InjectServiceConfig() private readonly config: BillingConfig) {}

  enabled(): boolean {
    return Boolean(this.config.YOOKASSA_SHOP_ID && this.config.YOOKASSA_SECRET_KEY);
  }

  async checkout(request: CheckoutRequest): Promise<Checkout> {
    const amount = { value: request.amount, currency: 'RUB' };
    const { body } = await this.call('POST', '/payments', {
      idempotenceKey: request.idempotenceKey,
      body: {
        amount,
        capture: true,
        confirmation: { type: 'redirect', return_url: this.config.PAYMENT_RETURN_URL },
        description: request.description,
        metadata: { payment_id: String(request.paymentId) },
        receipt: {
          customer: { email: request.email },
          items: [
            {
              description: request.description,
              quantity: '1.00',
              amount,
              vat_code: 1,
              payment_mode: 'full_payment',
              payment_subject: 'service',
            },
          ],
        },
      },
    });
    const payment = this.parse(yookassaPayment, body);
    return {
      providerPaymentId: payment.id,
      payUrl: payment.confirmation?.confirmation_url ?? null,
      outcome: OUTCOMES[payment.status],
    };
  }

  async verifyNotification(body: unknown): Promise<VerifiedNotification | undefined> {
    const parsed = notification.safeParse(body);
    if (!parsed.success) throw new RejectedNotificationError('not a YooKassa notification');
    const { event, object } = parsed.data;
    if (event.startsWith('payment.')) {
      const payment = this.parse(yookassaPayment, await this.read(`/payments/${object.id}`));
      return {
        providerPaymentId: payment.id,
        outcome: OUTCOMES[payment.status],
        amount: payment.amount.value,
        currency: payment.amount.currency,
      };
    }
    if (event === 'refund.succeeded') {
      const refund = this.parse(yookassaRefund, await this.read(`/refunds/${object.id}`));
      if (refund.status !== 'succeeded') return undefined;
      return {
        providerPaymentId: refund.payment_id,
        outcome: 'refunded',
        amount: refund.amount.value,
        currency: refund.amount.currency,
        providerRefundId: refund.id,
      };
    }
    return undefined;
  }

  async refund(request: RefundRequest): Promise<ProviderRefund> {
    const { body } = await this.call('POST', '/refunds', {
      idempotenceKey: request.idempotenceKey,
      body: {
        payment_id: request.providerPaymentId,
        amount: { value: request.amount, currency: 'RUB' },
        description: request.description,
      },
    });
    const refund = this.parse(yookassaRefund, body);
    return { providerRefundId: refund.id, succeeded: refund.status === 'succeeded' };
  }

  /** A notification naming an object the shop does not have is forged. */
  private async read(path: string): Promise<unknown> {
    try {
      return (await this.call('GET', path, {})).body;
    } catch (error) {
      if (error instanceof ProviderUnavailableError && error.status === 404) {
        throw new RejectedNotificationError(`YooKassa knows no ${path}`);
      }
      throw error;
    }
  }

  private call(method: 'GET' | 'POST', path: string, options: { idempotenceKey?: string; body?: unknown }) {
    const credentials = Buffer.from(
      `${this.config.YOOKASSA_SHOP_ID}:${this.config.YOOKASSA_SECRET_KEY}`,
    ).toString('base64');
    return callProviderJson(`${this.config.YOOKASSA_API_URL}${path}`, {
      method,
      headers: {
        authorization: `Basic ${credentials}`,
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.idempotenceKey ? { 'idempotence-key': options.idempotenceKey } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      timeoutMs: this.config.PAYMENT_PROVIDER_TIMEOUT_MS,
    });
  }

  private parse<T>(schema: z.ZodType<T>, body: unknown): T {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new ProviderUnavailableError('YooKassa answered in an unexpected shape');
    return parsed.data;
  }
}
