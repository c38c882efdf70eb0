import { consumerConfig, idleFetchWaitMs } from './kafka-consumer-tuning';

describe('consumerConfig', () => {
  it('keeps the bus-wide fetch wait when a subscription asks for no batching', () => {
    const config = consumerConfig('g', { maxWaitTimeInMs: 1000 });
    expect(config).toMatchObject({ groupId: 'g', maxWaitTimeInMs: 1000, allowAutoTopicCreation: false });
    expect(config.minBytes).toBeUndefined();
  });

  it('waits kafkajs’s 5 s for new data unless told otherwise (a stop does not wait it out)', () => {
    expect(consumerConfig('g', {}).maxWaitTimeInMs).toBe(5000);
  });

  it('waits at most a third of a shorter session timeout, since kafkajs heartbeats between fetches', () => {
    expect(consumerConfig('g', { sessionTimeout: 10_000 }).maxWaitTimeInMs).toBe(3333);
    expect(idleFetchWaitMs({ sessionTimeout: 10_000, maxWaitTimeInMs: 100 })).toBe(100);
  });

  it("lets a subscription's batching decide how long and for how much the broker waits", () => {
    const config = consumerConfig('g', { maxWaitTimeInMs: 1000 }, { minBytes: 65_536, maxWaitMs: 250 });
    expect(config).toMatchObject({ minBytes: 65_536, maxWaitTimeInMs: 250 });
  });

  it('lets a batching subscription fetch 4 MiB a partition and 16 MiB in all, or what the bus is tuned to', () => {
    const batching = { minBytes: 65_536, maxWaitMs: 100 };
    expect(consumerConfig('g', {}, batching)).toMatchObject({
      maxBytesPerPartition: 4 * 1024 * 1024,
      maxBytes: 16 * 1024 * 1024,
    });
    expect(
      consumerConfig('g', { batchMaxBytesPerPartition: 1024, batchMaxBytes: 4096 }, batching),
    ).toMatchObject({
      maxBytesPerPartition: 1024,
      maxBytes: 4096,
    });
    expect(consumerConfig('g', { batchMaxBytesPerPartition: 1024 }).maxBytesPerPartition).toBeUndefined();
  });
});
