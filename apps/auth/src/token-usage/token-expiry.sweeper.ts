import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { TokenUsageRepository } from './token-usage.repository';

/** How long an applied usage event's id is kept against redelivery. */
export const REMEMBER_APPLIED_EVENTS_MS = 30 * 24 * 3600 * 1000;
const FORGET_EVERY_MS = 3600 * 1000;

/**
 * Every AUTH_TOKEN_EXPIRY_SWEEP_SECONDS, keys past their `expired_time` become expired (status 3); at
 * most hourly (and at start-up) the ids of usage events applied over a month ago are forgotten.
 */
@Injectable()
export class TokenExpirySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TokenExpirySweeper.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private lastForgotten = 0;

  constructor(
    private readonly usage: TokenUsageRepository,
    @InjectServiceConfig() private readonly config: AuthConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.AUTH_TOKEN_EXPIRY_SWEEP_SECONDS * 1000);
    this.timer.unref();
    void this.sweep();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; a pass still running is not doubled. */
  sweep(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
      const count = await this.usage.expire(Math.floor(Date.now() / 1000));
      if (count > 0) this.logger.log(`${count} API key(s) expired`);
    } catch (error) {
      this.logger.warn(`expiry sweep failed: ${messageOf(error)}`);
    }
    if (Date.now() - this.lastForgotten < FORGET_EVERY_MS) return;
    this.lastForgotten = Date.now();
    try {
      await this.usage.forgetAppliedBefore(new Date(Date.now() - REMEMBER_APPLIED_EVENTS_MS));
    } catch (error) {
      this.logger.warn(`forgetting applied usage events failed: ${messageOf(error)}`);
    }
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
