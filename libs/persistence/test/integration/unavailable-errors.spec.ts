import { createServer, type AddressInfo, type Server } from 'node:net';
import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { buildOrmOptions, isInfrastructureUnavailable } from '../../src';
import { CounterSchema } from '../support/counter.fixture';
import { requireEnv } from '../support/test-environment';

jest.setTimeout(30_000);

const adminUrl = (): string =>
  requireEnv(
    'DATABASE_URL',
    'give the admin URL of a PostgreSQL 15 server (bash scripts/infra.sh up postgres; eval "$(bash scripts/infra.sh env)")',
  );

async function asAdmin(sql: string): Promise<void> {
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A service's ORM as the services build it, not connected until its first query. */
async function ormFor(url: string, pool: { acquireTimeoutMillis?: number; embedded?: boolean } = {}) {
  const options = buildOrmOptions({
    url,
    entities: [CounterSchema],
    migrations: [],
    embedded: pool.embedded ?? false,
  });
  const acquire =
    pool.acquireTimeoutMillis === undefined ? {} : { acquireTimeoutMillis: pool.acquireTimeoutMillis };
  return MikroORM.init({ ...options, pool: { ...options.pool, ...acquire }, connect: false });
}

/** What a query through a fresh ORM on `url` fails with. */
async function queryFailure(url: string, sql = 'select 1', pool = {}): Promise<unknown> {
  const orm = await ormFor(url, pool);
  try {
    await orm.em.fork().execute(sql);
    throw new Error(`${sql} succeeded`);
  } catch (error) {
    return error;
  } finally {
    await orm.close(true);
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const onPort = (url: string, port: number): string => {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
};

describe('isInfrastructureUnavailable on the errors a real PostgreSQL and MikroORM raise', () => {
  it('is true when the database refuses the connection', async () => {
    const error = await queryFailure(onPort(adminUrl(), await closedPort()));
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isInfrastructureUnavailable(error)).toBe(true);
  });

  it('is true when the connection is reset as it opens', async () => {
    const resetting = createServer((socket) => socket.resetAndDestroy());
    const port = await listen(resetting);
    try {
      const error = await queryFailure(onPort(adminUrl(), port));
      expect(error).toMatchObject({ code: 'ECONNRESET' });
      expect(isInfrastructureUnavailable(error)).toBe(true);
    } finally {
      await new Promise((resolve) => resetting.close(resolve));
    }
  });

  it('is true when the connection is closed as it opens (pg: "Connection terminated unexpectedly")', async () => {
    const closing = createServer((socket) => socket.destroy());
    const port = await listen(closing);
    try {
      const error = await queryFailure(onPort(adminUrl(), port));
      expect(error).toMatchObject({ message: expect.stringContaining('Connection terminated unexpectedly') });
      expect(isInfrastructureUnavailable(error)).toBe(true);
    } finally {
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  it('is true when the server terminates the connection under a running query (57P01)', async () => {
    const orm = await ormFor(adminUrl());
    const admin = new Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      const tag = `unavailable-errors-${process.pid}-${Date.now()}`;
      const running = orm.em
        .fork()
        .execute(`select pg_sleep(20) /* ${tag} */`)
        .then(
          () => new Error('the query was not terminated'),
          (error: unknown) => error,
        );
      let terminated = 0;
      while (terminated === 0) {
        const { rows } = await admin.query<{ n: string }>(
          `select count(pg_terminate_backend(pid)) as n from pg_stat_activity
            where query like $1 and pid <> pg_backend_pid()`,
          [`%${tag}%`],
        );
        terminated = Number(rows[0]!.n);
      }
      const error = await running;
      expect(error).toMatchObject({ code: '57P01' });
      expect(isInfrastructureUnavailable(error)).toBe(true);
    } finally {
      await admin.end();
      await orm.close(true);
    }
  });

  it('is true when the server has no connection left for the role (53300)', async () => {
    const role = `unavailable_errors_${process.pid}_${Date.now()}`;
    await asAdmin(`create role ${role} login password 'secret' connection limit 0`);
    try {
      const url = new URL(adminUrl());
      url.username = role;
      url.password = 'secret';
      const error = await queryFailure(url.toString());
      expect(error).toMatchObject({ code: '53300' });
      expect(isInfrastructureUnavailable(error)).toBe(true);
    } finally {
      await asAdmin(`drop role ${role}`);
    }
  });

  it("is true when the pool gives up waiting for a connection (the embedded mode's pool)", async () => {
    const error = await queryFailure(onPort(adminUrl(), await closedPort()), 'select 1', {
      embedded: true,
      acquireTimeoutMillis: 300,
    });
    expect(error).toMatchObject({ message: expect.stringContaining('Timeout acquiring a connection') });
    expect(isInfrastructureUnavailable(error)).toBe(true);
  });

  it('is true when an HTTP call finds nothing listening', async () => {
    const error = await fetch(`http://127.0.0.1:${await closedPort()}/`).then(
      () => new Error('fetch succeeded'),
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ message: 'fetch failed' });
    expect(isInfrastructureUnavailable(error)).toBe(true);
  });

  it('is false for what the server refuses because of the query itself', async () => {
    const errors = [
      await queryFailure(adminUrl(), 'selec 1'),
      await queryFailure(adminUrl(), 'select 1 / 0'),
      await queryFailure(adminUrl(), 'select * from no_such_table'),
    ];
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(['42601', '22012', '42P01']);
    expect(errors.filter(isInfrastructureUnavailable)).toEqual([]);
  });
});
