import { Client } from 'pg';
import { withAdvisoryLock } from '../database/advisory-lock';
import {
  assertIdentifier,
  redactUrl,
  withDatabase,
  withSchema,
  withoutSchema,
} from '../database/database-url';
import { openDatabase } from '../database/open-database';
import { migrationList, type EntityDefinition, type MigrationClass } from '../database/orm-options';
import {
  migrationSetHash,
  templateDatabaseName,
  testDatabaseName,
  testSchemaName,
} from './test-database-names';

export interface TestDatabaseFactoryOptions {
  /** A URL with the right to create databases (PostgreSQL) or the PGlite test server's URL. */
  adminUrl: string;
  migrations: readonly MigrationClass[];
  entities: readonly EntityDefinition[];
}

export interface TestDatabase {
  /** A migrated database of its own; give it to `openDatabase` (embedded when the server is PGlite). */
  url: string;
  /** True when the server is PGlite: open the URL with `embedded: true`. */
  embedded: boolean;
  /** Close every connection to it first. */
  drop(): Promise<void>;
}

export interface TestDatabaseFactory {
  create(): Promise<TestDatabase>;
  /** Drops the databases created here and not dropped yet. */
  dispose(): Promise<void>;
}

interface Strategy {
  create(): Promise<{ url: string; drop(): Promise<void> }>;
}

/**
 * A fresh, migrated database per test file.
 *
 * On PostgreSQL the migrations run once per (server, migration set) into a template database,
 * and each test database is a `CREATE DATABASE … TEMPLATE` copy of it (fast, whatever the number
 * of migrations). On PGlite, which accepts `CREATE DATABASE` but serves only the database it
 * started with, each test gets its own schema instead (`?schema=` in its URL), migrated afresh.
 */
export function createTestDatabaseFactory(options: TestDatabaseFactoryOptions): TestDatabaseFactory {
  const live = new Map<string, () => Promise<void>>();
  let strategy: Promise<{ strategy: Strategy; embedded: boolean }> | undefined;

  const chooseStrategy = async (): Promise<{ strategy: Strategy; embedded: boolean }> => {
    const embedded = await isPglite(options.adminUrl);
    return { strategy: embedded ? schemaPerTest(options) : databaseFromTemplate(options), embedded };
  };

  return {
    async create() {
      strategy ??= chooseStrategy();
      const chosen = await strategy;
      const created = await chosen.strategy.create();
      const drop = async (): Promise<void> => {
        live.delete(created.url);
        await created.drop();
      };
      live.set(created.url, drop);
      return { url: created.url, embedded: chosen.embedded, drop };
    },
    async dispose() {
      for (const drop of [...live.values()]) await drop();
    },
  };
}

async function isPglite(url: string): Promise<boolean> {
  const version = await withClient(url, async (client) => {
    const result = await client.query<{ version: string }>('select version() as version');
    return result.rows[0]?.version ?? '';
  });
  return version.includes('PGlite');
}

function databaseFromTemplate(options: TestDatabaseFactoryOptions): Strategy {
  const adminUrl = withoutSchema(options.adminUrl);
  const hash = migrationSetHash(migrationList(options.migrations).map((migration) => migration.name));
  const template = templateDatabaseName(hash);
  const lockName = `tollgate:test-template:${template}`;
  let templateReady: Promise<void> | undefined;

  const ensureTemplate = (): Promise<void> =>
    // Jest workers start together: one builds the template, the others wait on the lock.
    withAdvisoryLock(adminUrl, lockName, async () => {
      const state = await withClient(adminUrl, (client) => templateState(client, template));
      if (state === 'ready') return;
      // A template left half-built by a crashed run is rebuilt.
      await withClient(adminUrl, async (client) => {
        if (state === 'incomplete') await client.query(`drop database "${template}" with (force)`);
        await client.query(`create database "${template}"`);
      });
      const orm = await openDatabase({
        url: withDatabase(adminUrl, template),
        entities: options.entities,
        migrations: options.migrations,
        embedded: false,
        poolSize: 2,
      });
      await orm.close();
      // Marked as a template only once migrated: that flag is what `ready` means. No connections
      // allowed, since a connected template cannot be copied.
      await withClient(adminUrl, (client) =>
        client.query(`alter database "${template}" with is_template true allow_connections false`),
      );
    });

  return {
    async create() {
      templateReady ??= ensureTemplate();
      await templateReady;
      const name = testDatabaseName(hash);
      await withClient(adminUrl, (client) =>
        client.query(`create database "${name}" template "${template}"`),
      );
      return {
        url: withDatabase(adminUrl, name),
        drop: async () => {
          await withClient(adminUrl, (client) =>
            client.query(`drop database if exists "${name}" with (force)`),
          );
        },
      };
    },
  };
}

async function templateState(client: Client, template: string): Promise<'missing' | 'incomplete' | 'ready'> {
  const result = await client.query<{ datistemplate: boolean }>(
    'select datistemplate from pg_database where datname = $1',
    [template],
  );
  const row = result.rows[0];
  if (row === undefined) return 'missing';
  return row.datistemplate ? 'ready' : 'incomplete';
}

function schemaPerTest(options: TestDatabaseFactoryOptions): Strategy {
  const adminUrl = withoutSchema(options.adminUrl);
  return {
    async create() {
      const schema = assertIdentifier(testSchemaName(), 'Schema');
      await withClient(adminUrl, (client) => client.query(`create schema "${schema}"`));
      const url = withSchema(adminUrl, schema);
      const orm = await openDatabase({
        url,
        entities: options.entities,
        migrations: options.migrations,
        embedded: true,
      });
      await orm.close();
      return {
        url,
        drop: async () => {
          await withClient(adminUrl, (client) => client.query(`drop schema if exists "${schema}" cascade`));
        },
      };
    },
  };
}

/** Other pools hand PGlite's connection back after a second idle; Jest workers may queue for it. */
const CONNECT_ATTEMPTS = 300;
const CONNECT_RETRY_MS = 100;

/**
 * One short-lived connection per administrative step. PGlite's server takes a single connection
 * and hangs up on others while it is busy (another pool, or a Jest worker), so that is retried.
 */
async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(url);
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function connect(url: string): Promise<Client> {
  let lastError: unknown;
  for (let attempt = 0; attempt < CONNECT_ATTEMPTS; attempt += 1) {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      return client;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => undefined);
      if (!isHangUp(error)) break;
      await new Promise((resolve) => setTimeout(resolve, CONNECT_RETRY_MS));
    }
  }
  throw new Error(`Cannot connect to ${redactUrl(url)}: ${String(lastError)}`);
}

function isHangUp(error: unknown): boolean {
  // Not `instanceof Error`: socket errors come from Node's own realm, which differs under Jest.
  const message =
    typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : '';
  return /Connection terminated|ECONNRESET/.test(message);
}
