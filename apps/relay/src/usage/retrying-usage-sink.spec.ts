import type { UsageRecorded } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import { RetryingUsageSink } from './retrying-usage-sink';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Logger;
const anEvent = (n: number) =>
  ({ event_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` }) as UsageRecorded;

/** A broker that refuses every publish until it is brought back. */
function aBroker() {
  const published: string[] = [];
  let down = false;
  return {
    published,
    goDown: () => (down = true),
    comeBack: () => (down = false),
    publish: async (events: UsageRecorded[]) => {
      if (down) throw new Error('KafkaJSNumberOfRetriesExceeded');
      published.push(...events.map((e) => e.event_id));
    },
  };
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
};

describe('RetryingUsageSink', () => {
  it('publishes at once while the broker is up', async () => {
    const broker = aBroker();
    const sink = new RetryingUsageSink({ publish: broker.publish, logger: silent });
    await sink.record(anEvent(1));
    expect(broker.published).toEqual([anEvent(1).event_id]);
    expect(sink.pending).toBe(0);
  });

  it('holds the events of calls served while the broker is down and publishes them, in order, once it is back', async () => {
    const broker = aBroker();
    const sink = new RetryingUsageSink({
      publish: broker.publish,
      logger: silent,
      initialDelayMs: 5,
      maxDelayMs: 20,
    });
    broker.goDown();
    await sink.record(anEvent(1));
    await sink.record(anEvent(2));
    expect(broker.published).toEqual([]);
    expect(sink.pending).toBe(2);

    broker.comeBack();
    await sink.record(anEvent(3));
    await until(() => sink.pending === 0);
    expect(broker.published).toEqual([1, 2, 3].map((n) => anEvent(n).event_id));
    await sink.close();
  });

  it('publishes what it holds when closed, if the broker takes it in time', async () => {
    const broker = aBroker();
    const sink = new RetryingUsageSink({
      publish: broker.publish,
      logger: silent,
      initialDelayMs: 60_000,
      closeTimeoutMs: 2_000,
    });
    broker.goDown();
    await sink.record(anEvent(1));
    broker.comeBack();
    await sink.close();
    expect(broker.published).toEqual([anEvent(1).event_id]);
  });

  it('gives up at close after its deadline, saying how many were lost', async () => {
    const broker = aBroker();
    const errors: unknown[] = [];
    const logger = { ...silent, error: (fields: unknown) => errors.push(fields) } as unknown as Logger;
    const sink = new RetryingUsageSink({
      publish: broker.publish,
      logger,
      initialDelayMs: 5,
      closeTimeoutMs: 50,
    });
    broker.goDown();
    await sink.record(anEvent(1));
    await sink.close();
    expect(errors).toEqual([{ usage_pending: 1 }]);
  });
});
