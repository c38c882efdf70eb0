import { openDatabase, OutboxMessage, type TestDatabase } from '@tollgate/persistence';

export type QueryRows = <T extends object>(sql: string, params?: readonly unknown[]) => Promise<T[]>;

/**
 * Runs queries on a test database. On PGlite the service holds the one connection while it
 * runs, so read its database after closing it.
 */
export async function withDatabase<R>(
  database: TestDatabase,
  work: (query: QueryRows) => Promise<R>,
): Promise<R> {
  const orm = await openDatabase({
    url: database.url,
    embedded: database.embedded,
    entities: [OutboxMessage],
    migrations: [],
  });
  try {
    return await work((sql, params = []) => orm.em.getConnection().execute(sql, [...params]));
  } finally {
    await orm.close(true);
  }
}
