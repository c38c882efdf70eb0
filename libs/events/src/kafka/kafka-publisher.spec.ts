import type { ProducerBatch } from 'kafkajs';
import { KafkaPublisher } from './kafka-publisher';

function fakeProducer(fail?: (batch: ProducerBatch) => boolean) {
  const batches: ProducerBatch[] = [];
  const producer = {
    connect: jest.fn(async () => undefined),
    disconnect: jest.fn(async () => undefined),
    sendBatch: jest.fn(async (batch: ProducerBatch) => {
      batches.push(batch);
      if (fail?.(batch)) throw new Error('broker down');
      return [];
    }),
  };
  return { producer, batches };
}

describe('KafkaPublisher', () => {
  it('coalesces concurrent publishes into one sendBatch grouped by topic, in order', async () => {
    const { producer, batches } = fakeProducer();
    const publisher = new KafkaPublisher(producer, { lingerMs: 5 });
    await Promise.all([
      publisher.publish([{ topic: 'a', key: '1', value: 1 }]),
      publisher.publish([{ topic: 'b', key: '2', value: 2, headers: { h: 'x' } }]),
      publisher.publish([{ topic: 'a', key: '3', value: null }]),
    ]);
    expect(producer.connect).toHaveBeenCalledTimes(1);
    expect(batches).toHaveLength(1);
    expect(batches[0].acks).toBe(-1);
    expect(batches[0].topicMessages).toEqual([
      {
        topic: 'a',
        messages: [
          { key: '1', value: '1', headers: {} },
          { key: '3', value: null, headers: {} },
        ],
      },
      { topic: 'b', messages: [{ key: '2', value: '2', headers: { h: 'x' } }] },
    ]);
  });

  it('fails only the publish holding a bad event, before anything is sent', async () => {
    const { producer, batches } = fakeProducer();
    const publisher = new KafkaPublisher(producer);
    await expect(publisher.publish([{ topic: 'bad topic', key: 'k', value: 1 }])).rejects.toThrow(
      /Invalid topic name/,
    );
    await publisher.publish([{ topic: 'good', key: 'k', value: 1 }]);
    expect(batches).toHaveLength(1);
  });

  it('rejects the publishes of a failed send and keeps serving later ones', async () => {
    let failures = 1;
    const { producer } = fakeProducer(() => failures-- > 0);
    const publisher = new KafkaPublisher(producer);
    await expect(publisher.publish([{ topic: 't', key: 'k', value: 1 }])).rejects.toThrow('broker down');
    await expect(publisher.publish([{ topic: 't', key: 'k', value: 2 }])).resolves.toBeUndefined();
  });

  it('flushes what is queued before disconnecting on close', async () => {
    const { producer, batches } = fakeProducer();
    const publisher = new KafkaPublisher(producer, { lingerMs: 60_000 });
    const published = publisher.publish([{ topic: 't', key: 'k', value: 1 }]);
    await publisher.close();
    await published;
    expect(batches).toHaveLength(1);
    expect(producer.disconnect).toHaveBeenCalledTimes(1);
  });
});
