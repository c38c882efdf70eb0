import { TOPICS } from '@tollgate/contracts';
import { aUsageRecorded, transportSubscriptionsOf } from '@tollgate/testing';
import { TOKEN_USAGE_GROUP, TokenUsageConsumer } from './token-usage.consumer';
import { TokenUsageRepository } from './token-usage.repository';

/** What the transport subscribes TokenUsageConsumer with. */
const subscribed = () =>
  transportSubscriptionsOf(TokenUsageConsumer, [{ provide: TokenUsageRepository, useValue: {} }]);

describe('TokenUsageConsumer', () => {
  it('consumes usage.recorded in its own group, in batches gathered for up to a second, waiting out any failure instead of dead-lettering a key’s spending', async () => {
    const [options, ...others] = await subscribed();
    expect(others).toEqual([]);
    expect(options).toMatchObject({
      groupId: TOKEN_USAGE_GROUP,
      topics: [TOPICS.usageRecorded.name],
      batching: { minBytes: 1024 * 1024, maxWaitMs: 1000 },
    });
    expect(options?.isTransient?.(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      true,
    );
  });

  it('keeps what it reads of an event and checks only that: malformed elsewhere is applied, a malformed quota is dead-lettered', async () => {
    const [options] = await subscribed();
    const event = aUsageRecorded({ token_id: 12, quota: 300, created_at: 1_800_000_000 });
    const decode = (value: unknown) => options?.decode?.(value);

    expect(decode({ ...event, price: { input: 'not a price' }, model: '' })).toEqual({
      v: 1,
      event_id: event.event_id,
      token_id: 12,
      quota: 300,
      created_at: 1_800_000_000,
    });
    expect(() => decode({ ...event, quota: 1.5 })).toThrow(/quota/);
    expect(() => decode({ ...event, token_id: '12' })).toThrow(/token_id/);
    expect(() => decode({ ...event, v: 2 })).toThrow(/\bv\b/);
  });
});
