import {
  ADMIN_PAYMENT_PAGE_DEFAULT_SIZE,
  adminPaymentPageSchema,
  adminPaymentViewSchema,
  type AdminPaymentView,
  type Page,
  type PaymentProviderName,
  type PaymentStatus,
} from '@tollgate/contracts';
import { api } from '../../api/client';

export interface PaymentFilters {
  status?: PaymentStatus;
  provider?: PaymentProviderName;
  user_id?: number;
}

/** `GET /api/payment/`: every user's payments, newest first. */
export async function fetchPayments(filters: PaymentFilters, page: number): Promise<Page<AdminPaymentView>> {
  return adminPaymentPageSchema.parse(
    await api.data<unknown>('GET', '/payment/', {
      query: { ...filters, p: page, page_size: ADMIN_PAYMENT_PAGE_DEFAULT_SIZE },
    }),
  );
}

export interface RefundRequest {
  amount: string;
  reason: string;
  /** One per dialog opening: a double click or a retry refunds once. */
  idempotency_key: string;
}

/** `POST /api/payment/:id/refund`: all or part of what is left; answers the payment after it. */
export async function refundPayment(id: number, request: RefundRequest): Promise<AdminPaymentView> {
  return adminPaymentViewSchema.parse(
    await api.data<unknown>('POST', `/payment/${id}/refund`, { body: request }),
  );
}
