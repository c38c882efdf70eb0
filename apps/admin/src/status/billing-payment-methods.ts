import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  PAYMENT_METHODS_CALL,
  paymentMethodsResult,
  servicePath,
  type PaymentMethodsResult,
} from '@tollgate/contracts';
import {
  InjectLogger,
  InjectServiceConfig,
  SERVICE_TOKEN_HEADER,
  ServiceTokenSigner,
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
 * background so that /api/status never waits for billing. Unknown until billing first answers.
 */
@Injectable()
export class BillingPaymentMethods implements OnModuleInit, OnModuleDestroy {
  private readonly signer: ServiceTokenSigner;
  private readonly url: string;
  private known?: PaymentMethodsResult;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private failureLogged = false;

  constructor(
    @InjectServiceConfig() config: AdminConfig,
    @InjectLogger() private readonly logger: Logger,
  ) {
    this.signer = new ServiceTokenSigner(
      config.TOLLGATE_INTERNAL_TOKEN_SECRET,
      PAYMENT_METHODS_CALL.audience,
    );
    this.url = new URL(servicePath(PAYMENT_METHODS_CALL), config.BILLING_URL).toString();
  }

  onModuleInit(): void {
    void this.refresh();
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
    const response = await fetch(this.url, {
      method: PAYMENT_METHODS_CALL.method,
      headers: { [SERVICE_TOKEN_HEADER]: await this.signer.token() },
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`billing answered HTTP ${response.status}`);
    }
    const body: unknown = await response.json();
    return paymentMethodsResult.parse((body as { data?: unknown } | null)?.data);
  }
}
