import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  normalizeDecimal,
  type AdminPaymentListQuery,
  type AdminPaymentView,
  type Page,
  type PaymentRefundView,
} from '@tollgate/contracts';
import type { Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/messages';
import { PaymentRefund } from './payment-refund.entity';
import type { Payment } from './payment.entity';
import { kopecksOf, rublesOf } from './refund-share';

interface AdminPaymentRow {
  id: number;
  user_id: number;
  username: string | null;
  provider: AdminPaymentView['provider'];
  provider_payment_id: string | null;
  status: AdminPaymentView['status'];
  amount: string;
  usd_rub: string;
  quota: string;
  bonus_quota: string;
  promo_code: string | null;
  refunded_amount: string;
  refunded_quota: string;
  created_at: Date;
  completed_at: Date | null;
}

const seconds = (date: Date | string): number => Math.floor(new Date(date).getTime() / 1000);

const SELECT = `select p.id, p.user_id, u.username, p.provider, p.provider_payment_id, p.status, p.amount,
    p.usd_rub, p.quota, p.bonus_quota, c.code as promo_code, p.refunded_amount, p.refunded_quota,
    p.created_at, p.completed_at
  from payments p
  left join usernames u on u.user_id = p.user_id
  left join promo_codes c on c.id = p.promo_id`;

/** Every user's payments for operators: filtered lists, one payment with its refunds. */
@Injectable()
export class AdminPaymentsService {
  constructor(private readonly em: EntityManager) {}

  async list(query: AdminPaymentListQuery, page: number, pageSize: number): Promise<Page<AdminPaymentView>> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (query.status) {
      conditions.push('p.status = ?');
      params.push(query.status);
    }
    if (query.provider) {
      conditions.push('p.provider = ?');
      params.push(query.provider);
    }
    if (query.user_id) {
      conditions.push('p.user_id = ?');
      params.push(query.user_id);
    }
    const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
    const em = this.em.fork();
    const [count] = await em.execute<{ total: number }[]>(
      `select count(*)::int as total from payments p ${where}`,
      params,
    );
    const rows = await em.execute<AdminPaymentRow[]>(
      `${SELECT} ${where} order by p.id desc limit ? offset ?`,
      [...params, pageSize, (page - 1) * pageSize],
    );
    const refunds = await this.refundsOf(
      em,
      rows.map((row) => row.id),
    );
    return {
      page,
      page_size: pageSize,
      total: count?.total ?? 0,
      items: rows.map((row) => paymentView(row, refunds.get(row.id) ?? [])),
    };
  }

  async get(id: number, locale: Locale): Promise<AdminPaymentView> {
    const em = this.em.fork();
    const [row] = await em.execute<AdminPaymentRow[]>(`${SELECT} where p.id = ?`, [id]);
    if (!row) throw localizedException(ErrorCode.NotFound, 'payment_not_found', locale);
    return paymentView(row, (await this.refundsOf(em, [id])).get(id) ?? []);
  }

  /** The view of a payment just changed (a refund's answer). */
  view(payment: Payment, locale: Locale): Promise<AdminPaymentView> {
    return this.get(payment.id, locale);
  }

  private async refundsOf(em: EntityManager, ids: number[]): Promise<Map<number, PaymentRefundView[]>> {
    const byPayment = new Map<number, PaymentRefundView[]>();
    if (ids.length === 0) return byPayment;
    const refunds = await em.find(PaymentRefund, { paymentId: { $in: ids } }, { orderBy: { id: 'asc' } });
    for (const refund of refunds) {
      const list = byPayment.get(refund.paymentId) ?? [];
      list.push({
        id: Number(refund.id),
        amount: normalizeDecimal(refund.amount),
        quota: Number(refund.quota),
        reason: refund.reason,
        source: refund.source,
        actor_id: refund.actorId,
        provider_refund_id: refund.providerRefundId,
        created_at: seconds(refund.createdAt),
      });
      byPayment.set(refund.paymentId, list);
    }
    return byPayment;
  }
}

function paymentView(row: AdminPaymentRow, refunds: PaymentRefundView[]): AdminPaymentView {
  const refundable = row.status === 'success' ? kopecksOf(row.amount) - kopecksOf(row.refunded_amount) : 0n;
  return {
    id: Number(row.id),
    user_id: row.user_id,
    username: row.username,
    provider: row.provider,
    provider_payment_id: row.provider_payment_id,
    status: row.status,
    amount: normalizeDecimal(row.amount),
    currency: 'RUB',
    usd_rub: normalizeDecimal(row.usd_rub),
    quota: Number(row.quota),
    bonus_quota: Number(row.bonus_quota),
    promo_code: row.promo_code,
    refunded_amount: normalizeDecimal(row.refunded_amount),
    refunded_quota: Number(row.refunded_quota),
    refundable_amount: rublesOf(refundable),
    created_at: seconds(row.created_at),
    completed_at: row.completed_at ? seconds(row.completed_at) : null,
    refunds,
  };
}
