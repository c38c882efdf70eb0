import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { ConsumerLagReader } from '@tollgate/events';
import { MetricsService } from '@tollgate/platform';

export const CONSUMER_LAG_SOURCE = Symbol('CONSUMER_LAG_SOURCE');

export interface ConsumerLagSource {
  /** The bus to ask, or undefined when the runtime's bus cannot tell its lag. */
  reader: ConsumerLagReader | undefined;
  groupId: string;
  topic: string;
  intervalMs: number;
}

/** Publishes how far a consumer group is behind, per partition, as METRICS.consumerLag. */
@Injectable()
export class ConsumerLagExporter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ConsumerLagExporter.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private failing = false;
  private total: number | null = null;

  constructor(
    @Inject(CONSUMER_LAG_SOURCE) private readonly source: ConsumerLagSource,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.source.reader) {
      this.logger.warn(
        `this event bus cannot report consumer lag; ${this.source.groupId} lag is not exported`,
      );
      return;
    }
    this.timer = setInterval(() => {
      this.running ??= this.exportOnce().finally(() => (this.running = undefined));
    }, this.source.intervalMs);
    this.timer.unref();
    this.running = this.exportOnce().finally(() => (this.running = undefined));
  }

  /** The lag summed over partitions at the last reading; null before one succeeded or without a reader. */
  lastTotal(): number | null {
    return this.total;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Reads the lag once and sets the gauge; a failure is logged once until reading works again. */
  async exportOnce(): Promise<void> {
    const { reader, groupId, topic } = this.source;
    if (!reader) return;
    try {
      const gauge = this.metrics.gauge('consumerLag');
      let total = 0;
      for (const partition of await reader.consumerLag(groupId, topic)) {
        gauge.set({ topic, group: groupId, partition: String(partition.partition) }, partition.lag);
        total += partition.lag;
      }
      this.total = total;
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        this.logger.warn(`reading the lag of ${groupId} failed: ${(error as Error).message}`);
      this.failing = true;
    }
  }
}
