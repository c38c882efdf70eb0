import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  createTestDatabaseFactory,
  openDatabase,
  queryRows,
  type Database,
  type TestDatabase,
  type TestDatabaseFactory,
} from '../../src';
import { CounterSchema, Migration20261122000100CreateCounters } from '../support/counter.fixture';
import { requireEnv } from '../support/test-environment';

jest.setTimeout(30_000);

const ENTITIES = [OutboxMessage, CounterSchema];
const MIGRATIONS = [Migration20261122000000CreateOutboxMessages, Migration20261122000100CreateCounters];
const COUNT = 'select /* query-rows spec */ count(*)::int as n from counters where value >= ?';

interface Prepared {
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

/** The named statements of the connection `em` runs on (one connection: the pool holds one). */
async function preparedOn(database: Database): Promise<Prepared[]> {
  return database.em
    .fork()
    .getConnection()
    .execute<Prepared[]>(
      `select statement, generic_plans::int, custom_plans::int from pg_prepared_statements
       where name like 'tollgate\\_%' order by statement`,
    );
}

describe('queryRows on PostgreSQL', () => {
  let factory: TestDatabaseFactory;
  let database: TestDatabase;
  const opened: Database[] = [];

  // A database of its own for each test (the tables change), opened as the services open theirs.
  const open = async (): Promise<Database> => {
    database = await factory.create();
    const orm = await openDatabase({
      url: database.url,
      embedded: false,
      entities: ENTITIES,
      migrations: MIGRATIONS,
      poolSize: 1,
    });
    opened.push(orm);
    await orm.em.fork().execute("insert into counters (name, value) values ('a', 1), ('b', 2), ('c', 3)");
    return orm;
  };

  beforeAll(() => {
    factory = createTestDatabaseFactory({
      adminUrl: requireEnv(
        'DATABASE_URL',
        'give the admin URL of a PostgreSQL 15 server (bash scripts/infra.sh up postgres; eval "$(bash scripts/infra.sh env)")',
      ),
      migrations: MIGRATIONS,
      entities: ENTITIES,
    });
  });

  afterEach(async () => {
    for (const orm of opened.splice(0)) await orm.close(true);
  });

  afterAll(async () => {
    await factory?.dispose();
  });

  it('prepares its statement once per connection and keeps the generic plan after five runs', async () => {
    const orm = await open();
    const counts: number[] = [];
    for (let run = 0; run < 8; run++) {
      counts.push((await queryRows<{ n: number }>(orm.em.fork(), COUNT, [run % 4]))[0]!.n);
    }
    const inTransaction = await orm.em.fork().transactional((em) => queryRows<{ n: number }>(em, COUNT, [2]));

    expect(counts).toEqual([3, 3, 2, 1, 3, 3, 2, 1]);
    expect(inTransaction).toEqual([{ n: 2 }]);
    expect(await preparedOn(orm)).toEqual([
      { statement: COUNT.replace('?', '$1'), custom_plans: 5, generic_plans: 4 },
    ]);
  });

  it('goes on when a column is added to a table its statement reads (the result names its columns)', async () => {
    const orm = await open();
    await queryRows(orm.em.fork(), COUNT, [0]);
    await orm.em.fork().execute('alter table counters add column note text');
    await orm.em.fork().execute("insert into counters (name, value, note) values ('d', 4, 'new')");

    expect(await queryRows(orm.em.fork(), COUNT, [0])).toEqual([{ n: 4 }]);
    expect(await preparedOn(orm)).toHaveLength(1);
  });

  it('answers once more, unnamed from then on, when the connection refuses its named statement', async () => {
    const orm = await open();
    const star = 'select /* query-rows spec */ * from counters where value >= ? order by id';
    expect(await queryRows(orm.em.fork(), star, [3])).toEqual([{ id: 3, name: 'c', value: 3 }]);
    // The result of `*` grows a column: "cached plan must not change result type".
    await orm.em.fork().execute('alter table counters add column note text');

    expect(await queryRows(orm.em.fork(), star, [3])).toEqual([{ id: 3, name: 'c', value: 3, note: null }]);
    expect(await queryRows(orm.em.fork(), COUNT, [0])).toEqual([{ n: 3 }]);
    expect((await preparedOn(orm)).map(({ statement }) => statement)).toEqual([star.replace('?', '$1')]);
  });

  it('fails a transaction whose named statement is refused, and the retry goes through unnamed', async () => {
    const orm = await open();
    await queryRows(orm.em.fork(), COUNT, [0]);
    // What a pooler in transaction mode does: the next transaction's server connection lacks the statement.
    await orm.em.fork().execute('deallocate all');

    const attempt = orm.em.fork().transactional((em) => queryRows<{ n: number }>(em, COUNT, [0]));
    await expect(attempt).rejects.toMatchObject({ code: '26000' });
    expect(await orm.em.fork().transactional((em) => queryRows<{ n: number }>(em, COUNT, [0]))).toEqual([
      { n: 3 },
    ]);
  });
});
