import type { Provider, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { EventBus, SubscribeOptions } from '@tollgate/events';
import { EventBusTransport } from '@tollgate/runtime';

/**
 * The subscriptions EventBusTransport makes for the `@BusEvent` handlers of `controller` (its
 * dependencies given by `providers`), read from a bus that only records them: group, topics,
 * batching, schema and failure rules as the service would subscribe.
 */
export async function transportSubscriptionsOf(
  controller: Type,
  providers: Provider[],
): Promise<SubscribeOptions<unknown>[]> {
  const subscriptions: SubscribeOptions<unknown>[] = [];
  const bus = {
    subscribe: async (options: SubscribeOptions<unknown>) => {
      subscriptions.push(options);
      return { stop: async () => undefined };
    },
  } as unknown as EventBus;
  const moduleRef = await Test.createTestingModule({ controllers: [controller], providers }).compile();
  const app = moduleRef.createNestMicroservice({ strategy: new EventBusTransport(bus), logger: false });
  await app.listen();
  await app.close();
  return subscriptions;
}
