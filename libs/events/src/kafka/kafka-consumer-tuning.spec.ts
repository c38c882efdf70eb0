import { consumerConfig } from './kafka-consumer-tuning';

describe('consumerConfig', () => {
  it('keeps the bus-wide fetch wait when a subscription asks for no batching', () => {
    const config = consumerConfig('g', { maxWaitTimeInMs: 1000 });
    expect(config).toMatchObject({ groupId: 'g', maxWaitTimeInMs: 1000, allowAutoTopicCreation: false });
    expect(config.minBytes).toBeUndefined();
  });

  it('waits a second for new data unless told otherwise, so that a stop never waits out kafkajs’s 5 s', () => {
    expect(consumerConfig('g', {}).maxWaitTimeInMs).toBe(1000);
  });

  it("lets a subscription's batching decide how long and for how much the broker waits", () => {
    const config = consumerConfig('g', { maxWaitTimeInMs: 1000 }, { minBytes: 65_536, maxWaitMs: 250 });
    expect(config).toMatchObject({ minBytes: 65_536, maxWaitTimeInMs: 250 });
  });
});
