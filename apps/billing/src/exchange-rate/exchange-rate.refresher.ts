import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import type { BillingConfig } from '../config';
import { BillingSettings } from '../settings/billing-settings';
import { ExchangeRateService } from './exchange-rate.service';

/**
 * Fetches the bank's rate every EXCHANGE_RATE_REFRESH_SECONDS. The first fetch waits for the first
 * request that needs a rate (or the first tick), so a start-up never waits on the bank. Publishes
 * the rate in force on billing.price at start-up and whenever a fetch, an override or the markup
 * changes it.
 */
@Injectable()
export class ExchangeRateRefresher implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private stopWatchingMarkup: (() => void) | undefined;

  constructor(
    private readonly rates: ExchangeRateService,
    private readonly settings: BillingSettings,
    @InjectServiceConfig() private readonly config: BillingConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Relay's rate for ruble costs: the one in force at start-up, then each change of it.
    this.stopWatchingMarkup = this.settings.onMarkupChange(() => void this.rates.publishIfChanged());
    await this.rates.publishIfChanged();
    this.timer = setInterval(
      () => void this.rates.refresh(),
      this.config.EXCHANGE_RATE_REFRESH_SECONDS * 1000,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.stopWatchingMarkup?.();
  }
}
