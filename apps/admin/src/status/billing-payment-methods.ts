import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { PAYMENT_METHODS_CALL, paymentMethodsResult, type PaymentMethodsResult } from '@tollgate/contracts';
import {
  answerData,
  InjectLogger,
  InjectServiceConfig,
  ServiceCaller,
  type Logger,
} from '@tollgate/platform';
import type { AdminConfig } from '../config';

/** Billing's credentials change only when billing restarts: its answer is asked again this often. */
export const PAYMENT_METHODS_REFRESH_MS = 60_000;
/** Until billing has answered once (it may start after admin), it is asked this often. */
export const PAYMENT_METHODS_RETRY_MS = 5_000;
const CALL_TIMEOUT_MS = 2_000;

/**
 * Which payment providers billing holds credentials for (PAYMENT_METHODS_CALL), kept fresh in the
 * background. Unknown until billing first answers; /api/status waits only for the first ask (at most
 * CALL_TIMEOUT_MS), never for a later one.
 */
@Injectable()
export class BillingPaymentMethods implements OnModuleInit, OnModuleDestroy {
  private readonly billing: ServiceCaller;
  private known?: PaymentMethodsResult;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private failureLogged = false;
  private firstAsk?: Promise<void>;

  constructor(
    @InjectServiceConfig() config: AdminConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {
    this.billing = new ServiceCaller(config.BILLING_URL, config.TOLLGATE_INTERNAL_TOKEN_SECRET);
  }

  onModuleInit(): void {
    this.firstAsk = this.refresh();
  }

  /** Settles once the first ask has been answered or has failed (it never rejects). */
  async asked(): Promise<void> {
    await this.firstAsk;
  }

  /** Billing's last answer; undefined while it has never answered. */
  current(): PaymentMethodsResult | undefined {
    return this.known;
  }

  /** Asks billing now; a failure keeps the last answer. */
  async refresh(): Promise<void> {
    clearTimeout(this.timer);
    try {
      this.known = await this.ask();
      this.failureLogged = false;
    } catch (error) {
      if (!this.failureLogged) {
        this.logger.warn(
          { err: error },
          "billing's payment methods could not be read; /api/status keeps the operators' switches alone",
        );
        this.failureLogged = true;
      }
    }
    if (this.stopped) return;
    this.timer = setTimeout(
      () => void this.refresh(),
      this.known ? PAYMENT_METHODS_REFRESH_MS : PAYMENT_METHODS_RETRY_MS,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async ask(): Promise<PaymentMethodsResult> {
    const answer = await this.billing.send(PAYMENT_METHODS_CALL, { timeoutMs: CALL_TIMEOUT_MS });
    const methods = answer.status === 200 ? answerData(paymentMethodsResult, answer.body) : undefined;
    if (!methods) throw new Error(`billing answered HTTP ${answer.status} without the payment methods`);
    return methods;
  }
}
