import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SUPPORT = join(__dirname, '..', 'support');

/** PGlite cannot run inside Jest's sandbox: each scenario runs in a child process (ts-register.js). */
async function scenario<T>(name: string, root: string): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    [
      '-r',
      join(SUPPORT, 'ts-register.js'),
      join(SUPPORT, 'pglite-in-thread-scenarios.ts'),
      name,
      join(root, name),
    ],
    { timeout: 90_000 },
  );
  return JSON.parse(stdout) as T;
}

describe('a PGlite on the same thread, reached without its socket', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tollgate-pglite-in-thread-'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('is what openDatabase connects to: a transaction commits, one failing midway rolls back', async () => {
    const result = await scenario<{
      failure: string;
      after: Record<string, number>;
      socketConnections: number;
    }>('transactions', root);

    expect(result.socketConnections).toBe(0);
    expect(result.failure).toBe('UniqueConstraintViolationException');
    expect(result.after).toEqual({ a: 1, b: 2 });
  }, 120_000);

  it('rolls back the transaction of a client that ends or is destroyed inside it, and frees the database', async () => {
    const result = await scenario<{ rows: unknown[] }>('closed-by-client', root);

    expect(result.rows).toEqual([]);
  }, 120_000);

  it('ends its clients when the instance stops, and stops serving the URL', async () => {
    const result = await scenario<{ after: string; streamFactoryAfterStop: boolean }>(
      'closed-by-server',
      root,
    );

    expect(result.after).toMatch(/not queryable|terminated/);
    expect(result.streamFactoryAfterStop).toBe(true);
  }, 120_000);

  it("runs another connection's statements after an open transaction, not inside it", async () => {
    const result = await scenario<{ order: string[] }>('transaction-holds-the-database', root);

    expect(result.order).toEqual(['first commits', 'second read 2']);
  }, 120_000);

  it('vacuums the tables with dead rows, which nothing else does in PGlite', async () => {
    const result = await scenario<{ before: number; after: number }>('vacuums-dead-rows', root);

    expect(result.before).toBeGreaterThanOrEqual(1_000);
    expect(result.after).toBe(0);
  }, 120_000);

  it("keeps two services' databases on one thread apart, and each one's data across a restart", async () => {
    const result = await scenario<{ kept: Record<string, number>[]; socketConnections: number }>(
      'two-databases',
      root,
    );

    expect(result.kept).toEqual([{ auth: 1 }, { billing: 2 }]);
    expect(result.socketConnections).toBe(0);
  }, 120_000);
});
