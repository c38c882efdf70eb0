import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import type { AuthConfig } from '../config';
import { TokenUsageRepository } from './token-usage.repository';

/** Every AUTH_TOKEN_EXPIRY_SWEEP_SECONDS, keys past their `expired_time` become expired (status 3). */
@Injectable()
export class TokenExpirySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TokenExpirySweeper.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

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
    this.running ??= this.usage
      .expire(Math.floor(Date.now() / 1000))
      .then((count) => {
        if (count > 0) this.logger.log(`${count} API key(s) expired`);
      })
      .catch((error: unknown) => {
        this.logger.warn(`expiry sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
