import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScenarioProcess } from '../../src/test-scenarios/scenario-process';

/** PGlite cannot run inside Jest's sandbox: the scenarios run in a child process, one after another. */
const scenarios = new ScenarioProcess(join(__dirname, '..', 'support', 'pglite-in-thread-scenarios.ts'));

/** A scenario on a folder of its own in `root`. */
const scenario = <T>(name: string, root: string): Promise<T> => scenarios.run<T>(name, join(root, name));

describe('a PGlite on the same thread, reached without its socket', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tollgate-pglite-in-thread-'));
  });

  // PGlite data directories are thousands of files: on a busy machine their removal outlasts Jest's 5 s.
  afterAll(async () => {
    await scenarios.close();
    await rm(root, { recursive: true, force: true });
  }, 60_000);

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

  it('keeps its connection between statements seconds apart, without a reaper waking the thread every quarter second', async () => {
    const result = await scenario<{ values: number[]; connects: number; reaps: number }>(
      'kept-connection',
      root,
    );

    expect(result.values).toEqual([0, 0, 0]);
    expect(result.connects).toBe(0);
    expect(result.reaps).toBe(0);
  }, 120_000);

  it('vacuums the tables with dead rows, which nothing else does in PGlite', async () => {
    const result = await scenario<{ before: number; after: number }>('vacuums-dead-rows', root);

    expect(result.before).toBeGreaterThanOrEqual(1_000);
    expect(result.after).toBe(0);
  }, 120_000);

  it('analyzes a table that only grows, which nothing else does in PGlite', async () => {
    const result = await scenario<{
      before: { analyzed: boolean; rows: number };
      after: { analyzed: boolean; rows: number };
    }>('analyzes-grown-tables', root);

    expect(result.before).toEqual({ analyzed: false, rows: -1 });
    expect(result.after).toEqual({ analyzed: true, rows: 2_000 });
  }, 120_000);

  it("keeps two services' databases on one thread apart, and each one's data across a restart", async () => {
    const result = await scenario<{ kept: Record<string, number>[]; socketConnections: number }>(
      'two-databases',
      root,
    );

    expect(result.kept).toEqual([{ auth: 1 }, { billing: 2 }]);
    expect(result.socketConnections).toBe(0);
  }, 120_000);

  it("keeps each connection's session its own on a PGlite that several schemas share: another one's SET, temp table, prepared statement or lock is never seen, in or after its transaction", async () => {
    const result = await scenario<Record<string, unknown>>('two-schemas-one-session', root);

    const billingSession = { searchPath: 'billing', timeout: '0', temps: 0, prepared: 0, advisory: 0 };
    expect(result.billingAfterAuth).toEqual(billingSession);
    // Auth's own settings are not kept once another connection ran: it is back to its schema's.
    expect(result.authAfterBilling).toEqual({ ...billingSession, searchPath: 'auth' });
    expect(result.billingRowsAfterCommit).toEqual(['billing']);
    expect(result.billingAfterTransaction).toEqual(billingSession);
    expect(result.billingAfterLeaver).toEqual(billingSession);
    expect(result.authRows).toEqual(['auth']);
    expect(result.billingRows).toEqual(['billing']);
    // The transaction had set its search_path to public before inserting: that is where its row went.
    expect(result.publicRows).toEqual(['auth, in its transaction']);
  }, 120_000);

  it('keeps two services on one PGlite in their own schemas, migrations and raw SQL included, their transactions interleaved', async () => {
    const result = await scenario<{
      authRows: Record<string, number>;
      billingRows: Record<string, number>;
      tables: string[];
    }>('two-services-one-cluster', root);

    expect(result.authRows).toEqual({ auth0: 1, auth1: 2, auth2: 3, auth3: 4, auth4: 5 });
    expect(result.billingRows).toEqual({
      billing0: 1,
      billing1: 11,
      billing2: 21,
      billing3: 31,
      billing4: 41,
    });
    expect(result.tables).toEqual([
      'auth.counters',
      'auth.mikro_orm_migrations',
      'billing.counters',
      'billing.mikro_orm_migrations',
    ]);
  }, 120_000);

  it("prepares queryRows' statement once per connection and keeps it while connections take turns, each its own name", async () => {
    const result = await scenario<{
      parses: number;
      reads: string[];
      inTransaction: unknown[];
      preparedBefore: string[];
      preparedAfterAuthClosed: string[];
      alike: unknown[];
    }>('prepared-statements', root);

    // 17 runs over two connections, the session changing hands each time: parsed once by each
    // (was 17 times: unnamed, and DISCARD ALL at each change dropped any named statement).
    expect(result.parses).toBe(2);
    expect(result.reads).toEqual([
      JSON.stringify({ auth: { n: 2, total: 3 }, billing: { n: 1, total: 10 } }),
    ]);
    expect(result.inTransaction).toEqual([{ n: 1, total: 2 }]);
    expect(result.preparedBefore).toHaveLength(2);
    expect(result.preparedAfterAuthClosed).toHaveLength(1);
    // Two connections' statements named alike, with different texts, do not meet.
    expect(result.alike).toEqual([{ v: 1 }, { v: '0!' }, { v: 2 }, { v: '1!' }, { v: 3 }, { v: '2!' }]);
  }, 120_000);
});
