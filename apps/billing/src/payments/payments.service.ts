import { randomUUID } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  normalizeDecimal,
  toScaledInteger,
  type Page,
  type PaymentCreated,
  type PaymentCreateRequest,
  type PaymentLogItem,
} from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { InjectServiceConfig, type Locale } from '@tollgate/platform';
import type { BillingConfig } from '../config';
import { ExchangeRateService } from '../exchange-rate/exchange-rate.service';
import { rublesToQuota } from '../exchange-rate/ruble-quota';
import { localizedException } from '../i18n/messages';
import { PromoGuessLimit } from '../promo/promo-guess-limit';
import { PromoRedemptionsService } from '../promo/promo-redemptions.service';
import { promoBonusQuota } from '../promo/promo-rules';
import { billingPaymentEvent } from './payment-events';
import { PaymentProviders } from './payment-providers';
import { PaymentSettlementService } from './payment-settlement.service';
import { Payment } from './payment.entity';
import { ProviderUnavailableError } from './providers/provider-http';

const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
const kopecks = (rubles: string): bigint => toScaledInteger(normalizeDecimal(rubles), 2);
/** `1500` → `1500.00`, the form providers want. */
const twoDecimals = (rubles: string): string => {
  const scaled = kopecks(rubles).toString().padStart(3, '0');
  return `${scaled.slice(0, -2)}.${scaled.slice(-2)}`;
};
/**
 * The payment's description at the provider, which is also the item on its receipt: the shop's
 * record of the sale, in Russian whatever the payer's language, so not one of the locale messages.
 */
const receiptDescription = (paymentId: number): string => `Пополнение баланса, платёж №${paymentId}`;

interface PaymentLogRow {
  id: string;
  amount: string;
  status: PaymentLogItem['status'];
  provider: PaymentLogItem['provider'];
  quota: string;
  bonus_quota: string;
  promo_code: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** Creating top-ups and listing them; what happens to them later is PaymentSettlementService's. */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger(PaymentsService.name);

  constructor(
    private readonly em: EntityManager,
    private readonly providers: PaymentProviders,
    private readonly rates: ExchangeRateService,
    private readonly promos: PromoRedemptionsService,
    private readonly guesses: PromoGuessLimit,
    private readonly settlement: PaymentSettlementService,
    private readonly outbox: OutboxRelay,
    @InjectServiceConfig() private readonly config: BillingConfig,
  ) {}

  /**
   * Records a pending payment at the current rate, with the promo code's bonus reserved, then asks
   * the provider for a checkout. A test payment is settled at once.
   */
  async create(userId: number, request: PaymentCreateRequest, locale: Locale): Promise<PaymentCreated> {
    const provider = this.providers.enabled(request.provider, locale);
    this.checkAmountLimits(request.amount, locale);
    const { usd_rub: usdRub } = await this.rates.current();
    const quota = rublesToQuota(request.amount, usdRub);

    const pending = await this.em.fork().transactional(async (tx) => {
      const now = new Date();
      const promo = request.promo_code
        ? await this.guesses.attempt(userId, locale, () =>
            this.promos.claim(tx, request.promo_code!, userId, request.amount, now, locale),
          )
        : undefined;
      const payment = tx.create(Payment, {
        userId,
        provider: request.provider,
        amount: request.amount,
        usdRub,
        quota,
        bonusQuota: promo ? promoBonusQuota(promo.type, promo.value, quota, usdRub) : 0,
        promoId: promo?.id ?? null,
        email: request.email,
        idempotenceKey: randomUUID(),
        createdAt: now,
        updatedAt: now,
      });
      await tx.flush();
      if (promo) await this.promos.reserve(tx, promo, userId, payment.id, now);
      await enqueueOutbox(tx, [billingPaymentEvent(payment, now)]);
      return payment;
    });
    this.outbox.nudge();

    let checkout;
    try {
      checkout = await provider.checkout({
        paymentId: pending.id,
        idempotenceKey: pending.idempotenceKey,
        amount: twoDecimals(pending.amount),
        email: pending.email,
        description: receiptDescription(pending.id),
      });
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      this.logger.warn(`payment ${pending.id}: ${request.provider} checkout failed: ${error.message}`);
      await this.settlement.apply(pending.id, 'failed');
      throw localizedException(
        ErrorCode.UpstreamServiceDown,
        'payment_system_unavailable',
        locale,
        undefined,
        {
          headers: { 'Retry-After': '30' },
        },
      );
    }
    await this.em
      .fork()
      .nativeUpdate(
        Payment,
        { id: pending.id },
        { providerPaymentId: checkout.providerPaymentId, payUrl: checkout.payUrl, updatedAt: new Date() },
      );
    const settled =
      checkout.outcome === 'pending'
        ? pending
        : (await this.settlement.apply(pending.id, checkout.outcome)).payment;
    return {
      id: settled.id,
      status: settled.status,
      provider: settled.provider,
      amount: normalizeDecimal(settled.amount),
      currency: 'RUB',
      usd_rub: normalizeDecimal(settled.usdRub),
      quota: settled.quota,
      bonus_quota: settled.bonusQuota,
      pay_url: checkout.payUrl,
    };
  }

  /** The caller's payments, newest first. */
  async logs(userId: number, page: number, pageSize: number): Promise<Page<PaymentLogItem>> {
    const em = this.em.fork();
    const [rows, total] = await Promise.all([
      em.execute<PaymentLogRow[]>(
        `select p.id, p.amount, p.status, p.provider, p.quota, p.bonus_quota, c.code as promo_code,
                p.created_at, p.completed_at
         from payments p left join promo_codes c on c.id = p.promo_id
         where p.user_id = ? order by p.id desc limit ? offset ?`,
        [userId, pageSize, (page - 1) * pageSize],
      ),
      em.count(Payment, { userId }),
    ]);
    return {
      page,
      page_size: pageSize,
      total,
      items: rows.map((row) => ({
        id: Number(row.id),
        amount: normalizeDecimal(row.amount),
        currency: 'RUB',
        status: row.status,
        provider: row.provider,
        quota: Number(row.quota),
        bonus_quota: Number(row.bonus_quota),
        promo_code: row.promo_code,
        created_at: epochSeconds(new Date(row.created_at)),
        completed_at: row.completed_at ? epochSeconds(new Date(row.completed_at)) : null,
      })),
    };
  }

  private checkAmountLimits(amount: string, locale: Locale): void {
    const min = this.config.PAYMENT_MIN_AMOUNT_RUB;
    const max = this.config.PAYMENT_MAX_AMOUNT_RUB;
    if (kopecks(amount) < kopecks(min) || kopecks(amount) > kopecks(max)) {
      throw localizedException(ErrorCode.ValidationFailed, 'payment_amount_out_of_range', locale, {
        min,
        max,
      });
    }
  }
}
