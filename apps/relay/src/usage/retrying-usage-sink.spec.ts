import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UsageRecorded } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import { RetryingUsageSink, type CorrelatedUsage } from './retrying-usage-sink';
import { UsageSpool } from './usage-spool';

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
    publish: async (events: CorrelatedUsage[]) => {
      if (down) throw new Error('KafkaJSNumberOfRetriesExceeded');
      published.push(...events.map((e) => e.event.event_id));
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

  it('hands each event to the bus when it is recorded, without a timer of its own', async () => {
    // The bus batches (KafkaPublisher); a window here would wake a lone call's relay once more.
    jest.useFakeTimers();
    try {
      const handed: string[] = [];
      const sink = new RetryingUsageSink({
        publish: async (events) => void handed.push(...events.map((e) => e.event.event_id)),
        logger: silent,
      });
      const recorded = [sink.record(anEvent(1)), sink.record(anEvent(2))];
      expect(handed).toEqual([anEvent(1).event_id, anEvent(2).event_id]);
      expect(jest.getTimerCount()).toBe(0);
      await Promise.all(recorded);
    } finally {
      jest.useRealTimers();
    }
  });

  it('waits at close for the publishes still in flight', async () => {
    let acknowledge!: () => void;
    const acknowledged = new Promise<void>((resolve) => (acknowledge = resolve));
    const published: string[] = [];
    const sink = new RetryingUsageSink({
      publish: async (events) => {
        await acknowledged;
        published.push(...events.map((e) => e.event.event_id));
      },
      logger: silent,
    });
    void sink.record(anEvent(1));
    let closed = false;
    const closing = sink.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(false);
    acknowledge();
    await closing;
    expect(published).toEqual([anEvent(1).event_id]);
  });

  it("publishes each event with its own call's headers, also once the broker took it after refusing it", async () => {
    const headersOf = (n: number) => ({ 'x-request-id': `request-${n}`, 'x-correlation-id': `flow-${n}` });
    let down = true;
    const publishedWith: string[] = [];
    const sink = new RetryingUsageSink({
      publish: async (events) => {
        if (down) throw new Error('KafkaJSNumberOfRetriesExceeded');
        publishedWith.push(...events.map((e) => `${e.event.event_id}:${e.headers?.['x-correlation-id']}`));
      },
      logger: silent,
      initialDelayMs: 5,
    });
    await Promise.all([sink.record(anEvent(1), headersOf(1)), sink.record(anEvent(2), headersOf(2))]);
    down = false;
    await sink.record(anEvent(3), headersOf(3));
    await until(() => sink.pending === 0);
    await sink.close();
    expect(publishedWith).toEqual([1, 2, 3].map((n) => `${anEvent(n).event_id}:flow-${n}`));
  });

  it('holds and spools, before record returns, the events the broker refused', async () => {
    const broker = aBroker();
    const sink = new RetryingUsageSink({
      publish: broker.publish,
      logger: silent,
      initialDelayMs: 5,
    });
    broker.goDown();
    await Promise.all([sink.record(anEvent(1)), sink.record(anEvent(2))]);
    expect(sink.pending).toBe(2);
    broker.comeBack();
    await until(() => sink.pending === 0);
    expect(broker.published).toEqual([anEvent(1).event_id, anEvent(2).event_id]);
    await sink.close();
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

describe('RetryingUsageSink with a spool', () => {
  let root: string;
  let directory: string;
  const spoolFiles = async () =>
    existsSync(directory) ? (await readdir(directory)).filter((name) => name.endsWith('.jsonl')) : [];
  const aSink = (broker: ReturnType<typeof aBroker>, logger = silent) =>
    new RetryingUsageSink({
      publish: broker.publish,
      logger,
      spool: new UsageSpool({ directory, logger }),
      initialDelayMs: 5,
      maxDelayMs: 20,
      closeTimeoutMs: 50,
    });

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'usage-sink-'));
    directory = join(root, 'spool');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('leaves the disk alone while the broker takes every event', async () => {
    const broker = aBroker();
    const sink = aSink(broker);
    await sink.start();
    await sink.record(anEvent(1));
    await sink.close();
    expect(broker.published).toEqual([anEvent(1).event_id]);
    expect(existsSync(directory)).toBe(false);
  });

  it('has each held event on disk when record returns, and empties the spool once the broker takes them', async () => {
    const broker = aBroker();
    const sink = aSink(broker);
    broker.goDown();
    await sink.record(anEvent(1));
    await sink.record(anEvent(2));
    const [file] = await spoolFiles();
    const lines = (await readFile(join(directory, file!), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as UsageRecorded).event_id)).toEqual([
      anEvent(1).event_id,
      anEvent(2).event_id,
    ]);

    broker.comeBack();
    await until(() => sink.pending === 0);
    await sink.close();
    expect(broker.published).toEqual([anEvent(1).event_id, anEvent(2).event_id]);
    expect(await spoolFiles()).toEqual([]);
  });

  it('leaves what the broker did not take at shutdown to the next relay, which publishes it once', async () => {
    const broker = aBroker();
    const warnings: string[] = [];
    const errors: string[] = [];
    const logger = {
      ...silent,
      warn: (_fields: unknown, message: string) => warnings.push(message),
      error: (_fields: unknown, message: string) => errors.push(message),
    } as unknown as Logger;
    const crashed = aSink(broker, logger);
    broker.goDown();
    await crashed.record(anEvent(1));
    await crashed.record(anEvent(2));
    await crashed.close();
    expect(errors).toEqual([]);
    expect(warnings).toContain(
      'usage.recorded the broker did not take before shutdown stays in the spool for the next relay',
    );

    // The next relay starts while the broker is still away: it holds what it adopted.
    const next = aSink(broker);
    await next.start();
    expect(next.pending).toBe(2);
    broker.comeBack();
    await until(() => next.pending === 0);
    await next.close();
    expect(broker.published).toEqual([anEvent(1).event_id, anEvent(2).event_id]);
    expect(await spoolFiles()).toEqual([]);
  });

  it('still holds and publishes events in memory when the spool cannot be written, saying so', async () => {
    await writeFile(directory, 'not a directory');
    const broker = aBroker();
    const errors: string[] = [];
    const logger = {
      ...silent,
      error: (_fields: unknown, message: string) => errors.push(message),
    } as unknown as Logger;
    const sink = aSink(broker, logger);
    broker.goDown();
    await sink.record(anEvent(1));
    expect(errors).toEqual(['usage.recorded could not be written to the spool: held in memory only']);

    broker.comeBack();
    await until(() => sink.pending === 0);
    await sink.close();
    expect(broker.published).toEqual([anEvent(1).event_id]);
  });
});
