import { Controller, Injectable, Module } from '@nestjs/common';
import { InProcessEventBus, silentEventBusLogger } from '@tollgate/events';
import { baseServiceConfigSchema, createLogger, createServiceApp, loadConfig } from '@tollgate/platform';
import { z } from 'zod';
import type { DecodedEvent } from '../bus-consumer';
import { BusEvent } from './bus-event.decorator';
import { EventBusTransport } from './event-bus-transport';

const orderV1 = z.object({ v: z.literal(1), n: z.number().int() });
type Order = z.infer<typeof orderV1>;

@Injectable()
class Ledger {
  readonly attempts: number[][] = [];
  private settledAll!: () => void;
  readonly settled = new Promise<void>((resolve) => (this.settledAll = resolve));

  async markPaid(orders: number[]): Promise<void> {
    this.attempts.push(orders);
    if (this.attempts.length === 1) throw new Error('the ledger is away');
    this.settledAll();
  }
}

// No @Public(): the platform's identity guard is global, and must let bus events through.
@Controller()
class OrdersEvents {
  constructor(private readonly ledger: Ledger) {}

  @BusEvent('orders', { group: 'probe.orders', schema: orderV1 })
  settle(events: DecodedEvent<Order>[]): Promise<void> {
    return this.ledger.markPaid(events.map((event) => event.value.n));
  }
}

@Module({ controllers: [OrdersEvents], providers: [Ledger] })
class ProbeModule {}

describe('EventBusTransport in a service app (the wiring startNestService needs)', () => {
  it("serves @BusEvent handlers past the platform's guard and error filter; the bus retries with the handler's own error", async () => {
    const retries: unknown[] = [];
    const bus = new InProcessEventBus({
      logger: { ...silentEventBusLogger, warn: (_message, context) => retries.push(context?.error) },
    });
    await bus.ensureTopics([{ name: 'orders', partitions: 1 }]);
    const config = loadConfig(baseServiceConfigSchema, {
      SERVICE_NAME: 'probe',
      PORT: '0',
      LOG_LEVEL: 'debug',
      TOLLGATE_INTERNAL_TOKEN_SECRET: 'unit-secret-that-is-long-enough-0123456789',
    });
    const logLines: string[] = [];
    const logger = createLogger({
      service: 'probe',
      level: config.LOG_LEVEL,
      destination: { write: (line: string) => void logLines.push(line) },
    });
    const service = await createServiceApp(ProbeModule, { service: 'probe', config, logger });
    service.app.connectMicroservice({ strategy: new EventBusTransport(bus) }, { inheritAppConfig: true });
    await service.app.init();
    await service.app.startAllMicroservices();

    await bus.publish([{ topic: 'orders', key: '1', value: { v: 1, n: 1 } }]);
    const ledger = service.app.get(Ledger);
    await ledger.settled;
    await service.close();
    await bus.close();

    expect(ledger.attempts).toEqual([[1], [1]]);
    expect(retries).toEqual(['the ledger is away']);
    expect(logLines.filter((line) => line.includes('the ledger is away'))).toEqual([]);
  });
});
