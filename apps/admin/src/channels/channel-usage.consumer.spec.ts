import { TOPICS } from '@tollgate/contracts';
import { aUsageRecorded, transportSubscriptionsOf } from '@tollgate/testing';
import { CHANNEL_USAGE_GROUP, ChannelUsageConsumer } from './channel-usage.consumer';
import { ChannelUsageRepository } from './channel-usage.repository';

/** What the transport subscribes ChannelUsageConsumer with. */
const subscribed = () =>
  transportSubscriptionsOf(ChannelUsageConsumer, [{ provide: ChannelUsageRepository, useValue: {} }]);

describe('ChannelUsageConsumer', () => {
  it('consumes usage.recorded in its own group, in batches gathered for up to a second', async () => {
    const [options, ...others] = await subscribed();
    expect(others).toEqual([]);
    expect(options).toMatchObject({
      groupId: CHANNEL_USAGE_GROUP,
      topics: [TOPICS.usageRecorded.name],
      batching: { minBytes: 1024 * 1024, maxWaitMs: 1000 },
    });
  });

  it('keeps what it reads of an event and checks only that: malformed elsewhere is counted, a malformed quota is dead-lettered', async () => {
    const [options] = await subscribed();
    const event = aUsageRecorded({ channel_id: 4, quota: 300 });
    const decode = (value: unknown) => options?.decode?.(value);

    expect(decode({ ...event, price: { input: 'not a price' }, token_id: 0 })).toEqual({
      v: 1,
      event_id: event.event_id,
      channel_id: 4,
      quota: 300,
    });
    expect(decode({ ...event, channel_id: null })).toMatchObject({ channel_id: null });
    expect(() => decode({ ...event, quota: -1 })).toThrow(/quota/);
    expect(() => decode({ ...event, event_id: 'not-a-uuid' })).toThrow(/event_id/);
  });
});
