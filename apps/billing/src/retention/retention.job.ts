import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { RETENTION_SETTINGS, retentionCutoff, type RetentionSettings } from './retention-settings';
import { RetentionService } from './retention.service';

export const RETENTION_LOCK_KEY = 'billing:log-retention:lock';

/**
 * Runs the retention clean-up at start-up and then every interval, one billing instance at a time:
 * the instance that takes the kv lock runs it, the others skip that round.
 */
@Injectable()
export class RetentionJob implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionJob.name);
  private readonly instance = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly retention: RetentionService,
    @Inject(KV_STORE) private readonly kv: KvStore,
    @Inject(RETENTION_SETTINGS) private readonly settings: RetentionSettings,
  ) {}

  /** Runs every interval even while the retention is 0: an operator may set days at any time. */
  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One round: takes the lock, purges, lets the lock go. False when another instance held it. */
  async runOnce(): Promise<boolean> {
    const cutoff = retentionCutoff(this.settings.days(), Date.now());
    if (!cutoff) return false;
    // The lock outlives a round that dies with its process by at most one interval.
    if (!(await this.kv.setIfAbsent(RETENTION_LOCK_KEY, this.instance, this.settings.intervalMs)))
      return false;
    try {
      const deleted = await this.retention.purgeBefore(cutoff, () => this.stopped);
      if (deleted > 0)
        this.logger.log(`deleted ${deleted} usage log row(s) older than ${cutoff.toISOString()}`);
    } finally {
      if ((await this.kv.get(RETENTION_LOCK_KEY)) === this.instance) await this.kv.del(RETENTION_LOCK_KEY);
    }
    return true;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .then(
          () => undefined,
          (error: Error) => this.logger.error(`usage log retention failed: ${error.message}`),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule(this.settings.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
