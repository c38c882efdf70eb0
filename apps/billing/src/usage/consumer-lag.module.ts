import { Module, type DynamicModule } from '@nestjs/common';
import { CONSUMER_LAG_SOURCE, ConsumerLagExporter, type ConsumerLagSource } from './consumer-lag.exporter';

/** Exports the lag of one consumer group as a metric. */
@Module({})
export class ConsumerLagModule {
  static register(source: ConsumerLagSource): DynamicModule {
    return {
      module: ConsumerLagModule,
      // Global: the admin overview reads the last lag.
      global: true,
      providers: [{ provide: CONSUMER_LAG_SOURCE, useValue: source }, ConsumerLagExporter],
      exports: [ConsumerLagExporter],
    };
  }
}
