import { LockMode } from '@mikro-orm/core';
import type { OutgoingEvent } from '@tollgate/events';
import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  OutboxRelay,
  createTestDatabaseFactory,
  enqueueOutbox,
  isUniqueViolation,
  openDatabase,
  type Database,
  type OutboxRelayOptions,
  type TestDatabase,
  type TestDatabaseFactory,
} from '../../src';
import { CounterSchema, Migration20261122000100CreateCounters } from '../support/counter.fixture';
import { RecordingEventBus } from '../support/recording-event-bus';
import { waitFor } from '../support/test-environment';

const ENTITIES = [OutboxMessage, CounterSchema];
const MIGRATIONS = [Migration20261122000000CreateOutboxMessages, Migration20261122000100CreateCounters];

export interface PersistenceContractTarget {
  /** Admin URL of the server under test; throws with a clear message when not configured. */
  adminUrl: () => string;
  /** Two connections can hold transactions at once (not PGlite's single session). */
  concurrentSessions?: boolean;
}

function event(n: number, key = `user-${n % 3}`): OutgoingEvent {
  return { topic: 'contract.events', key, value: { n }, headers: { 'event-id': `e${n}` } };
}

const eventIds = (events: OutgoingEvent[]): string[] =>
  events.map((published) => published.headers?.['event-id'] ?? '?');

class RecordingLogger {
  readonly warnings: string[] = [];
  warn(_details: Record<string, unknown>, message: string): void {
    this.warnings.push(message);
  }
}

/** The behaviour every database the services run on (PGlite, PostgreSQL) must show. */
export function describePersistenceContract(target: PersistenceContractTarget): void {
  let factory: TestDatabaseFactory;
  let database: TestDatabase;
  let orm: Database;
  const relays: OutboxRelay[] = [];

  const open = (): Promise<Database> =>
    openDatabase({
      url: database.url,
      embedded: database.embedded,
      entities: ENTITIES,
      migrations: MIGRATIONS,
    });

  const relay = (bus: RecordingEventBus, options: Partial<OutboxRelayOptions> = {}): OutboxRelay => {
    const created = new OutboxRelay({ em: orm.em, bus, logger: new RecordingLogger(), ...options });
    relays.push(created);
    return created;
  };

  const commitEvents = (events: OutgoingEvent[]): Promise<void> =>
    orm.em.fork().transactional((em) => enqueueOutbox(em, events));

  const unpublishedCount = (): Promise<number> => orm.em.fork().count(OutboxMessage, { publishedAt: null });

  beforeAll(async () => {
    factory = createTestDatabaseFactory({
      adminUrl: target.adminUrl(),
      migrations: MIGRATIONS,
      entities: ENTITIES,
    });
    database = await factory.create();
    orm = await open();
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((started) => started.stop()));
    await orm?.em.fork().nativeDelete(OutboxMessage, {});
  });

  afterAll(async () => {
    await orm?.close();
    await factory?.dispose();
  });

  describe('migrations', () => {
    it('are applied once, in order, and a restart applies nothing again and keeps the data', async () => {
      const applied = async (): Promise<string[]> =>
        (await orm.getMigrator().getExecutedMigrations()).map((migration) => migration.name);
      expect(await applied()).toEqual(MIGRATIONS.map((migration) => migration.name));
      await orm.em.fork().insert(CounterSchema, { name: 'survives-restart', value: 7 });

      await orm.close();
      orm = await open();

      expect(await applied()).toEqual(MIGRATIONS.map((migration) => migration.name));
      expect(await orm.em.fork().findOne(CounterSchema, { name: 'survives-restart' })).toMatchObject({
        value: 7,
      });
    });
  });

  describe('test databases', () => {
    it('are migrated and isolated from each other', async () => {
      const other = await factory.create();
      const otherOrm = await openDatabase({
        url: other.url,
        embedded: other.embedded,
        entities: ENTITIES,
        migrations: MIGRATIONS,
      });
      try {
        await otherOrm.em.fork().insert(CounterSchema, { name: 'only-in-the-other-database', value: 1 });
        expect(await otherOrm.em.fork().count(CounterSchema, { name: 'only-in-the-other-database' })).toBe(1);
      } finally {
        await otherOrm.close();
        await other.drop();
      }
      expect(await orm.em.fork().count(CounterSchema, { name: 'only-in-the-other-database' })).toBe(0);
    });
  });

  describe('transactions', () => {
    it('leave nothing behind when rolled back', async () => {
      const attempt = orm.em.fork().transactional(async (em) => {
        em.create(CounterSchema, { name: 'rolled-back', value: 1 });
        await em.flush();
        await enqueueOutbox(em, [event(1)]);
        throw new Error('abort the transaction');
      });

      await expect(attempt).rejects.toThrow('abort the transaction');
      expect(await orm.em.fork().count(CounterSchema, { name: 'rolled-back' })).toBe(0);
      expect(await orm.em.fork().count(OutboxMessage, {})).toBe(0);
    });

    it('report a duplicate key as a unique violation', async () => {
      await orm.em.fork().insert(CounterSchema, { name: 'taken', value: 0 });

      const error: unknown = await orm.em
        .fork()
        .insert(CounterSchema, { name: 'taken', value: 0 })
        .catch((caught: unknown) => caught);

      expect(isUniqueViolation(error)).toBe(true);
    });

    it('lose no increment when 30 transactions update one row under FOR UPDATE', async () => {
      const id = await orm.em.fork().insert(CounterSchema, { name: 'contended', value: 0 });

      await Promise.all(
        Array.from({ length: 30 }, () =>
          orm.em.fork().transactional(async (em) => {
            const counter = await em.findOneOrFail(CounterSchema, id, {
              lockMode: LockMode.PESSIMISTIC_WRITE,
            });
            counter.value += 1;
          }),
        ),
      );

      expect(await orm.em.fork().findOneOrFail(CounterSchema, id)).toMatchObject({ value: 30 });
    });
  });

  describe('outbox', () => {
    it('refuses to enqueue outside a transaction', async () => {
      await expect(enqueueOutbox(orm.em.fork(), [event(1)])).rejects.toThrow(/inside the transaction/);
    });

    it('never publishes events of a rolled-back transaction', async () => {
      const bus = new RecordingEventBus();
      await expect(
        orm.em.fork().transactional(async (em) => {
          await enqueueOutbox(em, [event(1)]);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      await commitEvents([event(2)]);

      await relay(bus).flushNow();

      expect(eventIds(bus.published)).toEqual(['e2']);
    });

    it('reports the age of the oldest unpublished event per topic, and 0 once the topic is out', async () => {
      const lag = new Map<string, number>();
      await commitEvents([event(1), { topic: 'contract.other', key: 'k', value: 1, headers: {} }]);
      const outbox = relay(new RecordingEventBus(), { onLag: (topic, age) => lag.set(topic, age) });

      await outbox.reportLag(Date.now() + 60_000);
      expect(lag.get('contract.events')).toBeGreaterThanOrEqual(59);
      expect(lag.get('contract.other')).toBeGreaterThanOrEqual(59);

      await outbox.flushNow();
      await outbox.reportLag();
      expect(Object.fromEntries(lag)).toEqual({ 'contract.events': 0, 'contract.other': 0 });
    });

    it('publishes committed events exactly once, in commit order, across batches', async () => {
      const bus = new RecordingEventBus();
      await commitEvents([event(1), event(2)]);
      await commitEvents([event(3)]);
      await commitEvents([
        { topic: 'contract.events', key: 'user-1', value: null, headers: { 'event-id': 'e4' } },
      ]);
      await commitEvents([event(5), event(6), event(7)]);
      const outbox = relay(bus, { batchSize: 2 });

      expect(await outbox.flushNow()).toBe(7);
      expect(await outbox.flushNow()).toBe(0);

      expect(eventIds(bus.published)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
      expect(bus.published[0]).toEqual(event(1));
      expect(bus.published[3]?.value).toBeNull();
      expect(await unpublishedCount()).toBe(0);
    });

    it("publishes a batch with one statement between its transaction's begin and commit", async () => {
      // Every statement is a round trip and a run of PostgreSQL's parser and planner (in embedded
      // mode, in WASM on the bookkeeping thread): locking, the older-rows check and the marking are one.
      await commitEvents([event(1), event(2)]);
      const statements: string[] = [];
      const knex = orm.em.getConnection().getKnex();
      const record = ({ sql }: { sql: string }) => statements.push(sql);
      knex.on('query', record);
      try {
        expect(await relay(new RecordingEventBus()).flushNow()).toBe(2);
      } finally {
        knex.off('query', record);
      }

      expect(statements).toHaveLength(3);
      expect(statements[0]).toMatch(/^begin/i);
      expect(statements[2]).toMatch(/^commit/i);
    });

    it('publishes again after a crash between publishing and marking, so nothing is lost', async () => {
      const bus = new RecordingEventBus();
      await commitEvents([event(1), event(2), event(3)]);
      bus.failNextAfterRecording(1);

      await expect(relay(bus).flushNow()).rejects.toThrow('relay killed after publishing');
      expect(await unpublishedCount()).toBe(3);

      const restarted = relay(bus);
      expect(await restarted.flushNow()).toBe(3);
      expect(eventIds(bus.published)).toEqual(['e1', 'e2', 'e3', 'e1', 'e2', 'e3']);
      expect(await unpublishedCount()).toBe(0);
    });

    it('keeps events through broker failures, backs off, and publishes them once it recovers', async () => {
      const bus = new RecordingEventBus();
      const logger = new RecordingLogger();
      bus.failNextBeforeRecording(2);
      const outbox = relay(bus, { logger, pollIntervalMs: 10, backoff: { initialMs: 20, maxMs: 40 } });
      await commitEvents([event(1)]);

      outbox.start();
      await waitFor(() => bus.published.length === 1, 5_000, 'the event after two failures');

      expect(logger.warnings).toHaveLength(2);
      expect(eventIds(bus.published)).toEqual(['e1']);
    });

    it('wakes up on nudge() instead of waiting for the next poll', async () => {
      const bus = new RecordingEventBus();
      const outbox = relay(bus, { pollIntervalMs: 60_000 });
      outbox.start();
      // Queued behind the first round: once it resolves, the next poll is a minute away.
      await outbox.flushNow();

      await commitEvents([event(1)]);
      outbox.nudge();

      await waitFor(() => bus.published.length === 1, 2_000, 'the nudged relay to publish');
    });

    it('runs the round a nudge asks for in the same turn of the event loop, not behind a timer', async () => {
      const bus = new RecordingEventBus();
      const outbox = relay(bus, { pollIntervalMs: 60_000 });
      outbox.start();
      await outbox.flushNow();
      // The round start() asked for, on an empty outbox, is over by then: the row goes out by the nudge.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await commitEvents([event(1)]);
      // A 0 ms timeout waits a millisecond: a sleep and one more wake-up of the thread per nudge.
      const timeouts = jest.spyOn(globalThis, 'setTimeout');
      try {
        outbox.nudge();
        await waitFor(() => bus.published.length === 1, 2_000, 'the nudged relay to publish');
        expect(timeouts.mock.calls.filter(([, delay]) => !delay)).toEqual([]);
      } finally {
        timeouts.mockRestore();
      }
    });

    it('lets two relays run at once without publishing a row twice or out of order', async () => {
      // One slow and one fast broker connection: were the fast relay to publish the rows it
      // locked while the slow one still holds older rows, the log would come out of order.
      const log: OutgoingEvent[] = [];
      const events = Array.from({ length: 40 }, (_, index) => event(index + 1));
      for (let start = 0; start < events.length; start += 4)
        await commitEvents(events.slice(start, start + 4));
      const slow = relay(new RecordingEventBus(8, log), { batchSize: 3, pollIntervalMs: 5 });
      const fast = relay(new RecordingEventBus(1, log), { batchSize: 3, pollIntervalMs: 5 });

      slow.start();
      fast.start();
      await waitFor(async () => (await unpublishedCount()) === 0, 20_000, 'both relays to drain the outbox');
      await Promise.all([slow.stop(), fast.stop()]);

      expect(eventIds(log)).toEqual(eventIds(events));
    });

    if (target.concurrentSessions) {
      it("publishes only the rows below one another relay holds, when the two relays' batches interleave", async () => {
        // Two relays locking at the same moment take alternate rows: the one holding e1 and e3
        // must not publish e3 before the other has published e2.
        await commitEvents([event(1), event(2), event(3), event(4)]);
        const bus = new RecordingEventBus();
        const outbox = relay(bus, { batchSize: 3 });

        const holder = await orm.em.getConnection().getKnex().transaction();
        try {
          // Only the second row: with OFFSET in the locking query itself, the skipped row is locked too.
          await holder.raw(
            'select id from outbox_messages where id = (select id from outbox_messages order by id offset 1 limit 1) for update',
          );
          expect(await outbox.flushNow()).toBe(1);
        } finally {
          await holder.rollback();
        }
        expect(eventIds(bus.published)).toEqual(['e1']);

        expect(await outbox.flushNow()).toBe(3);
        expect(eventIds(bus.published)).toEqual(['e1', 'e2', 'e3', 'e4']);
      });
    }

    describe('as the sole relay of its database (embedded mode)', () => {
      const sole = (bus: RecordingEventBus, options: Partial<OutboxRelayOptions> = {}) =>
        relay(bus, { soleRelay: true, ...options });

      it('publishes committed events exactly once, in commit order, across batches', async () => {
        const bus = new RecordingEventBus();
        await commitEvents([event(1), event(2)]);
        await commitEvents([event(3)]);
        await commitEvents([event(4), event(5)]);

        expect(await sole(bus, { batchSize: 2 }).flushNow()).toBe(5);
        expect(await sole(bus).flushNow()).toBe(0);

        expect(eventIds(bus.published)).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
        expect(await unpublishedCount()).toBe(0);
      });

      it('publishes again after a crash between publishing and marking, and keeps what the bus refused', async () => {
        const bus = new RecordingEventBus();
        await commitEvents([event(1), event(2)]);
        bus.failNextAfterRecording(1);
        await expect(sole(bus).flushNow()).rejects.toThrow('relay killed after publishing');
        bus.failNextBeforeRecording(1);
        await expect(sole(bus).flushNow()).rejects.toThrow('broker unavailable');
        expect(await unpublishedCount()).toBe(2);

        expect(await sole(bus).flushNow()).toBe(2);
        expect(eventIds(bus.published)).toEqual(['e1', 'e2', 'e1', 'e2']);
        expect(await unpublishedCount()).toBe(0);
      });

      it('marks only the rows it published, not one committed meanwhile', async () => {
        const bus = new RecordingEventBus();
        await commitEvents([event(1)]);
        bus.whilePublishing = async () => {
          bus.whilePublishing = undefined;
          await commitEvents([event(2)]);
        };

        expect(await sole(bus).flushNow()).toBe(1);
        expect(await unpublishedCount()).toBe(1);
        expect(await sole(bus).flushNow()).toBe(1);
        expect(eventIds(bus.published)).toEqual(['e1', 'e2']);
      });

      it('holds no lock while the bus takes a batch: another transaction writes those rows meanwhile', async () => {
        // A relay holding the rows (FOR UPDATE) until the bus answers would make this writer wait
        // for it, and the bus's answer waits for the writer: the lock timeout ends it instead.
        const bus = new RecordingEventBus();
        await commitEvents([event(1), event(2)]);
        let written = -1;
        bus.whilePublishing = async () => {
          bus.whilePublishing = undefined;
          written = await orm.em.fork().transactional(async (em) => {
            const connection = em.getConnection();
            const context = em.getTransactionContext();
            await connection.execute(`set local lock_timeout = '2s'`, [], 'run', context);
            const rows: unknown[] = await connection.execute(
              'update outbox_messages set headers = headers where published_at is null returning id',
              [],
              'all',
              context,
            );
            return rows.length;
          });
        };

        expect(await sole(bus).flushNow()).toBe(2);
        expect(written).toBe(2);
      });
    });

    it('deletes published rows older than the retention and never unpublished ones', async () => {
      const bus = new RecordingEventBus();
      await commitEvents([event(1), event(2)]);
      await relay(bus).flushNow();
      await commitEvents([event(3)]);

      expect(await relay(bus, { retentionMs: 60 * 60 * 1000 }).purgePublished()).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await relay(bus, { retentionMs: 1 }).purgePublished()).toBe(2);

      expect(await orm.em.fork().count(OutboxMessage, {})).toBe(1);
      expect(await unpublishedCount()).toBe(1);
    });
  });
}
