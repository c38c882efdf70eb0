import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import type { BillingConfig } from '../config';
import { ExchangeRateService } from './exchange-rate.service';

/**
 * Fetches the bank's rate every EXCHANGE_RATE_REFRESH_SECONDS. The first fetch waits for the first
 * request that needs a rate (or the first tick), so a start-up never waits on the bank.
 */
@Injectable()
export class ExchangeRateRefresher implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rates: ExchangeRateService,
    @InjectServiceConfig() private readonly config: BillingConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => void this.rates.refresh(),
      this.config.EXCHANGE_RATE_REFRESH_SECONDS * 1000,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }
}
