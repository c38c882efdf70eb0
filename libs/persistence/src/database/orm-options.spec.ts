import { Migration } from '@mikro-orm/migrations';
import { buildOrmOptions, KEEPS_NAMED_STATEMENTS, migrationList, type DatabaseOptions } from './orm-options';

class CreateUsers extends Migration {
  override up(): void {
    this.addSql('create table users (id serial primary key)');
  }
}
class AddEmail extends Migration {
  override up(): void {
    this.addSql('alter table users add column email text');
  }
}

function options(overrides: Partial<DatabaseOptions>): DatabaseOptions {
  return {
    url: 'postgres://u:p@127.0.0.1:5432/app',
    entities: [],
    migrations: [CreateUsers, AddEmail],
    embedded: false,
    ...overrides,
  };
}

describe('migrationList', () => {
  it('names migrations by class, in the given order', () => {
    expect(migrationList([CreateUsers, AddEmail])).toEqual([
      { name: 'CreateUsers', class: CreateUsers },
      { name: 'AddEmail', class: AddEmail },
    ]);
  });

  it('refuses a migration listed twice', () => {
    expect(() => migrationList([CreateUsers, AddEmail, CreateUsers])).toThrow(
      /"CreateUsers" is listed twice/,
    );
  });
});

/** The driver options besides knex's log hooks (driver-log.spec.ts covers those). */
const withoutLog = (driverOptions: unknown): unknown => {
  const { log: _log, ...rest } = driverOptions as Record<string, unknown>;
  return rest;
};

describe('buildOrmOptions', () => {
  it('gives PGlite one connection, no TLS and a short acquire timeout', () => {
    const built = buildOrmOptions(options({ embedded: true }));
    expect(built.pool).toMatchObject({ min: 0, max: 1, acquireTimeoutMillis: 5_000 });
    expect(withoutLog(built.driverOptions)).toEqual({
      connection: { ssl: false },
      [KEEPS_NAMED_STATEMENTS]: false,
    });
  });

  it('gives a PostgreSQL server a pool of the requested size', () => {
    const built = buildOrmOptions(options({ embedded: false, poolSize: 4 }));
    expect(built.pool).toMatchObject({ min: 0, max: 4 });
    expect(withoutLog(built.driverOptions)).toEqual({ [KEEPS_NAMED_STATEMENTS]: true });
  });

  it('puts tables and raw SQL into the schema named in the URL', () => {
    const built = buildOrmOptions(options({ url: 'postgres://u:p@127.0.0.1:5432/app?schema=svc_auth' }));
    expect(built.schema).toBe('svc_auth');
    expect(built.clientUrl).toBe('postgres://u:p@127.0.0.1:5432/app');
    expect(withoutLog(built.driverOptions)).toEqual({
      [KEEPS_NAMED_STATEMENTS]: true,
      searchPath: ['svc_auth'],
    });
  });

  it('runs the explicit migration classes without snapshots or file access', () => {
    const built = buildOrmOptions(options({}));
    expect(built.migrations?.migrationsList).toEqual(migrationList([CreateUsers, AddEmail]));
    expect(built.migrations?.snapshot).toBe(false);
    expect(built.discovery?.disableDynamicFileAccess).toBe(true);
  });
});
