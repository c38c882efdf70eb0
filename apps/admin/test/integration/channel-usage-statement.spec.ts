import { randomUUID } from 'node:crypto';
import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  openDatabase,
  type Database,
} from '@tollgate/persistence';
import { INFRASTRUCTURES, openInfrastructure, type TestInfrastructureWithDatabase } from '@tollgate/testing';
import { Channel } from '../../src/channels/channel.entity';
import { ChannelUsageRepository } from '../../src/channels/channel-usage.repository';
import { ChannelsMigration } from '../../src/migrations/20261220-channels.migration';
import { ChannelUsageMigration } from '../../src/migrations/20261224-channel-usage.migration';
import { ChannelOtherMigration } from '../../src/migrations/20261225-channel-other.migration';
import { ChannelUsageEventsBrinMigration } from '../../src/migrations/20270106-channel-usage-events-brin.migration';

jest.setTimeout(90_000);

/** Channel usage's repository alone on a migrated database, and what it leaves in the tables. */
describe.each(INFRASTRUCTURES)('channel usage statement on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let orm: Database;
  let repository: ChannelUsageRepository;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-channel-usage-statement-it');
    const database = await infra.createDatabase();
    orm = await openDatabase({
      url: database.url,
      embedded: database.embedded,
      entities: [OutboxMessage, Channel],
      migrations: [
        Migration20261122000000CreateOutboxMessages,
        ChannelsMigration,
        ChannelUsageMigration,
        ChannelOtherMigration,
        ChannelUsageEventsBrinMigration,
      ],
    });
    repository = new ChannelUsageRepository(orm.em);
  });
  afterAll(async () => {
    await orm?.close(true);
    await infra?.close();
  });

  function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return orm.em.getConnection().execute<T[]>(text, params);
  }
  const aChannel = async (): Promise<number> => {
    const [row] = await sql<{ id: number }>(
      `insert into channels (type, name, key_encrypted, key_masked, created_at, updated_at)
       values (1, ?, 'x', 'sk-…', now(), now()) returning id`,
      [randomUUID()],
    );
    return row.id;
  };
  const usedQuota = async (id: number): Promise<number> =>
    Number(
      (await sql<{ used: string }>('select used_quota::text as used from channels where id = ?', [id]))[0]
        ?.used,
    );

  it('adds each charge to its channel once, a batch delivered again adding nothing', async () => {
    const [one, two] = [await aChannel(), await aChannel()];
    const batch = [
      { eventId: randomUUID(), channelId: one, quota: 5 },
      { eventId: randomUUID(), channelId: two, quota: 7 },
      { eventId: randomUUID(), channelId: one, quota: 11 },
    ];

    expect(await repository.add(batch)).toBe(3);
    expect(await repository.add(batch)).toBe(0);
    expect([await usedQuota(one), await usedQuota(two)]).toEqual([16, 7]);
  });

  it('finds the recorded events to forget through a BRIN index on when they were recorded, no B-tree', async () => {
    const indexes = await sql<{ name: string; method: string; columns: string }>(
      `select i.relname as name, am.amname as method,
              pg_get_indexdef(x.indexrelid) as columns
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class t on t.oid = x.indrelid
       join pg_am am on am.oid = i.relam
       where t.relname = 'channel_usage_events'
       order by i.relname`,
    );
    expect(indexes.map(({ name, method }) => ({ name, method }))).toEqual([
      { name: 'channel_usage_events_pkey', method: 'btree' },
      { name: 'channel_usage_events_recorded_at_brin', method: 'brin' },
    ]);
  });

  it('forgets the events recorded before the given time, and only those', async () => {
    const channel = await aChannel();
    const old = randomUUID();
    await repository.add([{ eventId: old, channelId: channel, quota: 1 }]);
    await sql(`update channel_usage_events set recorded_at = now() - interval '40 days' where event_id = ?`, [
      old,
    ]);
    const recent = randomUUID();
    await repository.add([{ eventId: recent, channelId: channel, quota: 1 }]);

    await repository.forgetBefore(new Date(Date.now() - 30 * 24 * 3600 * 1000));

    const kept = await sql<{ event_id: string }>(
      'select event_id from channel_usage_events where event_id in (?, ?)',
      [old, recent],
    );
    expect(kept).toEqual([{ event_id: recent }]);
  });
});
