import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import {
  EVENT_BUS,
  InProcessEventBus,
  silentEventBusLogger,
  type EventBus,
  type SubscribeOptions,
} from '@tollgate/events';
import { baseServiceConfigSchema, createLogger, loadConfig } from '@tollgate/platform';
import { z } from 'zod';
import { startNestService } from '../start-nest-service';
import { BusEvent, type DecodedEvent } from './bus-event.decorator';

const orderV1 = z.object({ v: z.literal(1), n: z.number().int() });
type Order = z.infer<typeof orderV1>;

/** What happened in the service's life, in order: start-up, consumption, shutdown. */
const LIFE = Symbol('LIFE');

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

/** Stands for what a service's infrastructure does in init (topics, migrations) and after HTTP (the ORM). */
@Injectable()
class Database implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(LIFE) private readonly life: string[]) {}

  onModuleInit(): void {
    this.life.push('migrated');
  }

  onApplicationShutdown(): void {
    this.life.push('database closed');
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

@Controller('probe')
class ProbeHttp {
  @Get()
  answer(): string {
    return 'ok';
  }
}

@Module({ controllers: [OrdersEvents, ProbeHttp], providers: [Ledger, Database] })
class ProbeModule {}

/** The bus, recording when a group is joined and left. */
function recordingBus(bus: EventBus, life: string[]): EventBus {
  return {
    ensureTopics: (topics) => bus.ensureTopics(topics),
    publish: (events) => bus.publish(events),
    subscribe: async <T>(options: SubscribeOptions<T>) => {
      const subscription = await bus.subscribe(options);
      life.push(`joined ${options.groupId}`);
      return {
        stop: async () => {
          await subscription.stop();
          life.push(`left ${options.groupId}`);
        },
      };
    },
    table: (topic, decode) => bus.table(topic, decode),
    close: () => bus.close(),
  };
}

describe('startNestService with an eventTransport', () => {
  it("serves @BusEvent handlers past the platform's guard and error filter; the bus retries with the handler's own error", async () => {
    const retries: unknown[] = [];
    const life: string[] = [];
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
    let ledger!: Ledger;
    const service = await startNestService({
      name: 'probe',
      config,
      logger,
      module: {
        module: ProbeModule,
        providers: [
          { provide: EVENT_BUS, useValue: recordingBus(bus, life) },
          { provide: LIFE, useValue: life },
        ],
      },
      beforeListen: async (app) => {
        ledger = app.get(Ledger);
        app
          .getHttpAdapter()
          .getInstance()
          .addHook('onClose', async () => void life.push('http closed'));
      },
      eventTransport: {},
    });

    await bus.publish([{ topic: 'orders', key: '1', value: { v: 1, n: 1 } }]);
    await ledger.settled;
    await service.close();
    await bus.close();

    expect(ledger.attempts).toEqual([[1], [1]]);
    expect(retries).toEqual(['the ledger is away']);
    expect(logLines.filter((line) => line.includes('the ledger is away'))).toEqual([]);
    expect(life).toEqual([
      'migrated',
      'joined probe.orders',
      'http closed',
      'left probe.orders',
      'database closed',
    ]);
  });
});
