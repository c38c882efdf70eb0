import { Injectable } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import { z } from 'zod';
import type { BillingConfig } from '../../config';
import type { ProviderOutcome } from '../payment-status';
import { cryptoSignature, hasValidCryptoSignature, phpJson } from './crypto-signature';
import {
  RejectedNotificationError,
  type Checkout,
  type CheckoutRequest,
  type PaymentProvider,
  type VerifiedNotification,
} from './payment-provider.port';
import { callProviderJson, ProviderUnavailableError } from './provider-http';

export const CRYPTO_WEBHOOK_PATH = '/api/user/payment/webhook/crypto';
/** How long the payer has to pay an invoice, in seconds. */
const INVOICE_LIFETIME_SECONDS = 3600;

const invoiceAnswer = z.object({
  state: z.literal(0),
  result: z.object({ uuid: z.string().min(1), url: z.string().url() }).passthrough(),
});
const webhook = z
  .object({
    type: z.string(),
    uuid: z.string().min(1),
    order_id: z.string(),
    amount: z.string(),
    currency: z.string(),
    status: z.string(),
  })
  .passthrough();

/** Heleket / Cryptomus payment statuses; the ones not listed are still in progress. */
const OUTCOMES: Readonly<Record<string, ProviderOutcome>> = {
  paid: 'succeeded',
  paid_over: 'succeeded',
  cancel: 'canceled',
  fail: 'failed',
  system_fail: 'failed',
  // An underpaid invoice is not topped up partially; the provider returns or settles the difference.
  wrong_amount: 'failed',
  refund_paid: 'refunded',
};

/**
 * Crypto invoices in the style of Heleket / Cryptomus: requests carry the merchant id and
 * `sign` = md5(base64(body) + API key) headers; webhooks carry the same signature in their body.
 * The invoice is in rubles; the payer picks the coin and network on the provider's page.
 */
@Injectable()
export class CryptoProvider implements PaymentProvider {
  readonly name = 'crypto' as const;

  constructor(@InjectServiceConfig() private readonly config: BillingConfig) {}

  enabled(): boolean {
    return Boolean(this.config.CRYPTO_MERCHANT_ID && this.config.CRYPTO_API_KEY);
  }

  async checkout(request: CheckoutRequest): Promise<Checkout> {
    const body = phpJson({
      amount: request.amount,
      currency: 'RUB',
      order_id: `tollgate-${request.paymentId}`,
      url_callback: new URL(CRYPTO_WEBHOOK_PATH, this.config.PAYMENT_WEBHOOK_BASE_URL).toString(),
      url_return: this.config.PAYMENT_RETURN_URL,
      url_success: this.config.PAYMENT_RETURN_URL,
      lifetime: INVOICE_LIFETIME_SECONDS,
    });
    const answer = await callProviderJson(`${this.config.CRYPTO_API_URL}/payment`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        merchant: this.config.CRYPTO_MERCHANT_ID ?? '',
        sign: cryptoSignature(body, this.config.CRYPTO_API_KEY ?? ''),
      },
      body,
      timeoutMs: this.config.PAYMENT_PROVIDER_TIMEOUT_MS,
    });
    const parsed = invoiceAnswer.safeParse(answer.body);
    if (!parsed.success)
      throw new ProviderUnavailableError('the crypto provider answered in an unexpected shape');
    return { providerPaymentId: parsed.data.result.uuid, payUrl: parsed.data.result.url, outcome: 'pending' };
  }

  async verifyNotification(body: unknown): Promise<VerifiedNotification | undefined> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new RejectedNotificationError('not a JSON object');
    }
    if (!hasValidCryptoSignature(body as Record<string, unknown>, this.config.CRYPTO_API_KEY ?? '')) {
      throw new RejectedNotificationError('bad signature');
    }
    const parsed = webhook.safeParse(body);
    if (!parsed.success) throw new RejectedNotificationError('not a payment webhook');
    const outcome = OUTCOMES[parsed.data.status];
    if (parsed.data.type !== 'payment' || !outcome) return undefined;
    return {
      providerPaymentId: parsed.data.uuid,
      outcome,
      amount: parsed.data.amount,
      currency: parsed.data.currency,
    };
  }
}
