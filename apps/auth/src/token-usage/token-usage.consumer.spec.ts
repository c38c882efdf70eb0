import type { EventBus, SubscribeOptions } from '@tollgate/events';
import { TokenUsageConsumer } from './token-usage.consumer';
import type { TokenUsageRepository } from './token-usage.repository';

describe('TokenUsageConsumer', () => {
  it('waits out a database outage instead of dead-lettering a key’s spending', async () => {
    let options: SubscribeOptions<unknown> | undefined;
    const bus = {
      subscribe: async (o: SubscribeOptions<unknown>) => {
        options = o;
        return { stop: async () => undefined };
      },
    } as unknown as EventBus;
    await new TokenUsageConsumer(bus, {} as TokenUsageRepository).onApplicationBootstrap();
    expect(options?.isTransient?.(new Error('connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
  });
});
