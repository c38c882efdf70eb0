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
          { key: '1', value: Buffer.from('1'), headers: {} },
          { key: '3', value: null, headers: {} },
        ],
      },
      { topic: 'b', messages: [{ key: '2', value: Buffer.from('2'), headers: { h: 'x' } }] },
    ]);
  });

  it('sends at most one produce request every 25 ms under load unless told otherwise', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    try {
      const { producer, batches } = fakeProducer();
      const publisher = new KafkaPublisher(producer);
      await publisher.publish([{ topic: 'usage', key: '1', value: 1 }]);
      const later = publisher.publish([{ topic: 'usage', key: '2', value: 2 }]);
      await jest.advanceTimersByTimeAsync(24);
      expect(batches).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      await later;
      expect(batches).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('sends a lone publish at once and gathers what follows within lingerMs into the next request', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask'] });
    try {
      const { producer, batches } = fakeProducer();
      const publisher = new KafkaPublisher(producer, { lingerMs: 10 });
      await publisher.publish([{ topic: 'usage', key: '1', value: 1 }]);
      expect(batches).toHaveLength(1);
      const later = [
        publisher.publish([{ topic: 'usage', key: '2', value: 2 }]),
        publisher.publish([{ topic: 'usage', key: '3', value: 3 }]),
      ];
      await jest.advanceTimersByTimeAsync(10);
      await Promise.all(later);
      expect(batches.map((batch) => batch.topicMessages?.[0]?.messages.map((m) => m.key))).toEqual([
        ['1'],
        ['2', '3'],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('splits what one flush carries into produce requests of at most maxRequestBytes, in order', async () => {
    const { producer, batches } = fakeProducer();
    const publisher = new KafkaPublisher(producer, { lingerMs: 1, maxRequestBytes: 1_000 });
    const text = 'x'.repeat(300);
    // One publish of ten ~310-byte events (a sink republishing many calls' usage at once).
    await publisher.publish(
      Array.from({ length: 10 }, (_, i) => ({ topic: 'usage', key: `u${i}`, value: text })),
    );
    expect(batches.map((batch) => batch.topicMessages?.[0]?.messages.map((m) => m.key))).toEqual([
      ['u0', 'u1', 'u2'],
      ['u3', 'u4', 'u5'],
      ['u6', 'u7', 'u8'],
      ['u9'],
    ]);
  });

  it('sends a message larger than maxRequestBytes on its own rather than never', async () => {
    const { producer, batches } = fakeProducer();
    const publisher = new KafkaPublisher(producer, { lingerMs: 1, maxRequestBytes: 100 });
    await publisher.publish([
      { topic: 't', key: 'big', value: 'y'.repeat(500) },
      { topic: 't', key: 'small', value: 1 },
    ]);
    expect(batches.map((batch) => batch.topicMessages?.[0]?.messages.map((m) => m.key))).toEqual([
      ['big'],
      ['small'],
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
