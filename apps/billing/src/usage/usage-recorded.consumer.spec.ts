import { usageRecordedV1 } from '@tollgate/contracts';
import type { EventBus, SubscribeOptions } from '@tollgate/events';
import { UsageRecordedConsumer } from './usage-recorded.consumer';
import type { UsageSettlementService } from './usage-settlement.service';

describe('UsageRecordedConsumer', () => {
  async function subscribed(): Promise<SubscribeOptions<unknown>> {
    let options: SubscribeOptions<unknown> | undefined;
    const bus = {
      subscribe: async (o: SubscribeOptions<unknown>) => {
        options = o;
        return { stop: async () => undefined };
      },
    } as unknown as EventBus;
    await new UsageRecordedConsumer(bus, {} as UsageSettlementService).onApplicationBootstrap();
    return options!;
  }

  it('retries a batch that failed for a passing reason instead of dead-lettering a charge', async () => {
    const { isTransient } = await subscribed();
    const databaseAway = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(isTransient?.(databaseAway)).toBe(true);
  });

  it('lets a record that fails validation go to the dead-letter topic', async () => {
    const { isTransient } = await subscribed();
    const invalid = usageRecordedV1.safeParse({ v: 1 });
    expect(invalid.success).toBe(false);
    expect(isTransient?.(invalid.error)).toBe(false);
  });
});
