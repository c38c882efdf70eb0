import { InProcessEventBus, silentEventBusLogger, type EventRecord } from '@tollgate/events';
import { currentRequestContext, runWithRequestContext } from '@tollgate/platform';
import { CorrelatedEventBus } from './correlated-event-bus';

describe('CorrelatedEventBus', () => {
  const inner = new InProcessEventBus({ logger: silentEventBusLogger });
  const bus = new CorrelatedEventBus(inner);

  beforeAll(() => inner.ensureTopics([{ name: 'orders', partitions: 1 }]));
  afterAll(() => inner.close());

  it('stamps the request ids on events and restores them around the consumer', async () => {
    const seen: { headers: Record<string, string>; requestId?: string }[] = [];
    const delivered = new Promise<void>((resolve) => {
      void bus.subscribe({
        groupId: 'g1',
        topics: ['orders'],
        handler: async (batch: EventRecord[]) => {
          for (const record of batch)
            seen.push({ headers: record.headers, requestId: currentRequestContext()?.requestId });
          resolve();
        },
      });
    });
    await runWithRequestContext({ requestId: 'req-123', correlationId: 'corr-9' }, () =>
      bus.publish([{ topic: 'orders', key: 'k', value: { n: 1 }, headers: { 'x-extra': 'kept' } }]),
    );
    await delivered;
    expect(seen[0]?.headers).toMatchObject({
      'x-request-id': 'req-123',
      'x-correlation-id': 'corr-9',
      'x-extra': 'kept',
    });
    expect(seen[0]?.requestId).toBe('req-123');
  });

  it('adds nothing outside a request', async () => {
    const published = jest.spyOn(inner, 'publish');
    await bus.publish([{ topic: 'orders', key: 'k', value: 2 }]);
    expect(published.mock.calls[0]?.[0][0]?.headers).toBeUndefined();
  });
});
