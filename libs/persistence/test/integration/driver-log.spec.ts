import { Writable } from 'node:stream';
import { MikroORM } from '@mikro-orm/postgresql';
import { createLogger } from '@tollgate/platform';
import { Client } from 'pg';
import { buildOrmOptions } from '../../src';
import { CounterSchema } from '../support/counter.fixture';
import { requireEnv } from '../support/test-environment';

jest.setTimeout(30_000);

const adminUrl = (): string =>
  requireEnv(
    'DATABASE_URL',
    'give the admin URL of a PostgreSQL 15 server (bash scripts/infra.sh up postgres; eval "$(bash scripts/infra.sh env)")',
  );

describe("the database driver's own warnings", () => {
  it('go through the service logger, not console.log, when a pooled connection was cut', async () => {
    const printed = jest.spyOn(console, 'log');
    const lines: { level: string; component?: string; msg: string }[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    });
    const logger = createLogger({ service: 'driver-log-probe', level: 'info', destination });
    const orm = await MikroORM.init({
      ...buildOrmOptions({
        url: adminUrl(),
        entities: [CounterSchema],
        migrations: [],
        embedded: false,
        logger,
      }),
      connect: false,
    });
    const admin = new Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      const [{ pid }] = await orm.em.fork().execute<{ pid: number }[]>('select pg_backend_pid() as pid');
      await admin.query('select pg_terminate_backend($1)', [pid]);
      // The pool hands the cut connection out again until the driver has seen it die; then knex
      // warns "Connection Error: …" and opens a new one.
      const warned = () =>
        lines.some(
          (line) =>
            line.level === 'warn' && line.component === 'database' && line.msg.includes('Connection Error'),
        );
      for (let attempt = 0; attempt < 50 && !warned(); attempt++) {
        await orm.em
          .fork()
          .execute('select 1')
          .catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(warned()).toBe(true);
      expect(printed.mock.calls.filter(([message]) => String(message).includes('Connection Error'))).toEqual(
        [],
      );
    } finally {
      printed.mockRestore();
      await admin.end();
      await orm.close(true);
    }
  });
});
