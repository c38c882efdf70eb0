import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { InjectLogger, InjectServiceConfig, type Logger } from '@tollgate/platform';
import type { AdminConfig } from '../config';
import { ChannelsService } from './channels.service';

/** Held by the replica running a round; other replicas skip their tick while it lives. */
export const AUTO_ENABLE_LOCK_KEY = 'admin:channel-auto-enable:lock';

export interface AutoEnableRound {
  tested: number;
  enabled: number;
  /** Channels relay could not test this round (tried again next round). */
  unavailable: number;
}

/**
 * Every CHANNEL_AUTO_ENABLE_INTERVAL_SECONDS, tests each auto-disabled channel through relay and
 * re-enables those that pass. One replica runs a round at a time: the round's lock lives for most of
 * an interval, so the replicas' ticks in that interval find it taken.
 */
@Injectable()
export class ChannelAutoEnableJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly instanceId = randomUUID();
  private readonly intervalMs: number;
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private readonly shutdown = new AbortController();

  constructor(
    private readonly channels: ChannelsService,
    @Inject(KV_STORE) private readonly kv: KvStore,
    @InjectLogger() private readonly logger: Logger,
    @InjectServiceConfig() config: AdminConfig,
  ) {
    this.intervalMs = config.CHANNEL_AUTO_ENABLE_INTERVAL_SECONDS * 1000;
  }

  onApplicationBootstrap(): void {
    if (this.intervalMs === 0) return;
    this.timer = setInterval(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.shutdown.abort();
    await this.running;
  }

  /** One round if no replica holds the lock; undefined when skipped. */
  async runRound(): Promise<AutoEnableRound | undefined> {
    const lockTtlMs = Math.max(1000, Math.floor(this.intervalMs * 0.9));
    if (!(await this.kv.setIfAbsent(AUTO_ENABLE_LOCK_KEY, this.instanceId, lockTtlMs))) return undefined;
    const round: AutoEnableRound = { tested: 0, enabled: 0, unavailable: 0 };
    for (const id of await this.channels.autoDisabledIds()) {
      if (this.shutdown.signal.aborted) break;
      try {
        const result = await this.channels.test(id, undefined, this.shutdown.signal);
        round.tested += 1;
        if (result.success && (await this.channels.reenable(id))) round.enabled += 1;
      } catch (error) {
        round.unavailable += 1;
        this.logger.warn({ channelId: id, err: error }, 'auto-disabled channel could not be tested');
      }
    }
    return round;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.runRound()
      .then((round) => {
        if (round && round.tested + round.unavailable > 0) {
          this.logger.info({ ...round }, 'auto-disabled channels tested');
        }
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'channel re-enable round failed'))
      .finally(() => {
        this.running = undefined;
      });
  }
}
