import {
  pageSchema,
  paymentCreatedSchema,
  paymentLogItemSchema,
  promoValidationSchema,
  type PaymentCreated,
  type PaymentLogItem,
  type PaymentProviderName,
  type PromoValidation,
} from '@tollgate/contracts';
import { z } from 'zod';
import { api } from '../../api/client';

export const PAYMENT_HISTORY_PAGE_SIZE = 10;

export interface PaymentRequest {
  /** Rubles, as the canonical decimal text. */
  amount: string;
  promo_code?: string;
  provider: PaymentProviderName;
  email: string;
}

export type { PaymentCreated, PaymentLogItem, PromoValidation };

/** `POST /api/user/payment`: a pending payment and where to pay it (null when already settled). */
export async function createPayment(request: PaymentRequest): Promise<PaymentCreated> {
  return paymentCreatedSchema.parse(await api.data<unknown>('POST', '/user/payment', { body: request }));
}

/** `POST /api/promo/validate`: whether the code can be used, with the bonus described. */
export async function validatePromo(code: string): Promise<PromoValidation> {
  return promoValidationSchema.parse(await api.data<unknown>('POST', '/promo/validate', { body: { code } }));
}

const paymentPageSchema = pageSchema(paymentLogItemSchema);
export type PaymentPage = z.infer<typeof paymentPageSchema>;

/** `GET /api/user/payment/logs`: the caller's top-ups, newest first. */
export async function fetchPaymentLogs(page: number): Promise<PaymentPage> {
  const data = await api.data<unknown>('GET', '/user/payment/logs', {
    query: { p: page, page_size: PAYMENT_HISTORY_PAGE_SIZE },
  });
  return paymentPageSchema.parse(data);
}
