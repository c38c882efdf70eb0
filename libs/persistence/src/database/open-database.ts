import 'reflect-metadata';
import type { MikroORM } from '@mikro-orm/core';
import { MikroORM as PostgreSqlMikroORM, type PostgreSqlDriver } from '@mikro-orm/postgresql';
import { withAdvisoryLock } from './advisory-lock';
import { redactUrl, schemaOf } from './database-url';
import { buildOrmOptions, type DatabaseOptions } from './orm-options';

export type Database = MikroORM<PostgreSqlDriver>;

/** Connects, applies the pending migrations, and returns the ORM; closes it again if migrating fails. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const orm = await PostgreSqlMikroORM.init(buildOrmOptions(options));
  try {
    await migrate(orm, options);
  } catch (error) {
    await orm.close(true);
    const hint = options.embedded ? ' (PGlite: is its server running, and its one connection free?)' : '';
    const message = `Could not open and migrate the database at ${redactUrl(options.url)}${hint}`;
    throw new Error(`${message}: ${String(error)}`, { cause: error });
  }
  return orm;
}

async function migrate(orm: Database, options: DatabaseOptions): Promise<void> {
  const applyPending = async (): Promise<void> => {
    await orm.getMigrator().up();
  };
  if (options.embedded) {
    // One process owns a PGlite data directory, so nobody races us; and the lock would need a
    // second connection, which pglite-socket does not give.
    await applyPending();
    return;
  }
  // Replicas starting together would otherwise race to create the same tables.
  await withAdvisoryLock(
    options.url,
    `tollgate:migrations:${schemaOf(options.url) ?? 'public'}`,
    applyPending,
  );
}
