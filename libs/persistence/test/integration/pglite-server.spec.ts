import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SUPPORT = join(__dirname, '..', 'support');

interface Roundtrip {
  firstUrl: string;
  secondUrl: string;
  notes: { body: string }[];
  version: string;
}

/**
 * PGlite's dynamic import() cannot run inside Jest's sandbox: the servers run in a child process,
 * which must exit on its own (a worker thread left running would hold it until the timeout).
 */
async function inChild<T>(script: string, args: string[]): Promise<T> {
  const { stdout } = await run(
    process.execPath,
    ['-r', join(SUPPORT, 'ts-register.js'), join(SUPPORT, script), ...args],
    { timeout: 90_000 },
  );
  return JSON.parse(stdout) as T;
}

describe('startPgliteServer', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tollgate-pglite-server-'));
  });

  // PGlite data directories are thousands of files: on a busy machine their removal outlasts Jest's 5 s.
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  }, 60_000);

  it('serves PGlite on a loopback port, creating missing parent folders, and keeps data across restarts', async () => {
    const dataDir = join(root, 'data', 'pg', 'billing');

    const result = await inChild<Roundtrip>('pglite-server-roundtrip.ts', [dataDir]);

    expect(result.firstUrl).toMatch(/^postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(result.firstUrl).not.toBe('postgres://postgres:postgres@127.0.0.1:0/postgres');
    expect(result.notes).toEqual([{ body: 'kept' }]);
    expect(result.version).toContain('PGlite');
    expect((await stat(dataDir)).isDirectory()).toBe(true);
  }, 120_000);

  it("runs PostgreSQL off the caller's event loop: a timer fires while a query is running", async () => {
    const result = await inChild<{ answered: boolean; events: string[] }>('pglite-server-scenarios.ts', [
      'main-thread-during-query',
      join(root, 'responsive'),
    ]);

    // The query spins until the main thread's timer has seen it start and answered through a file.
    expect(result.answered).toBe(true);
    expect(result.events).toEqual(['a timer saw query-started', 'query answered']);
  }, 120_000);
});

describe('startPgliteServers', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tollgate-pglite-servers-'));
  });

  // PGlite data directories are thousands of files: on a busy machine their removal outlasts Jest's 5 s.
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  }, 60_000);

  it('serves each data directory as its own database on its own port, and keeps each one across restarts', async () => {
    const result = await inChild<{
      urls: string[];
      tables: { name: string }[][];
      users: { name: string }[];
      ledger: { amount: string }[];
    }>('pglite-server-scenarios.ts', ['several-in-one-worker', join(root, 'several')]);

    expect(new Set(result.urls).size).toBe(4);
    expect(result.tables).toEqual([[{ name: 'users' }], [{ name: 'ledger' }]]);
    expect(result.users).toEqual([{ name: 'ann' }]);
    expect(result.ledger).toEqual([{ amount: '150' }]);
  }, 120_000);

  it('serves schemas sharing one data directory from one PGlite on this thread, without a socket, until the last is closed; refuses them on a worker', async () => {
    const result = await inChild<{
      urls: string[];
      afterFirstClose: unknown[];
      servedAfterLastClose: boolean;
      socketRefused: string;
      onWorker: string;
    }>('pglite-server-scenarios.ts', ['schemas-sharing-one-data-dir', join(root, 'schemas')]);

    const [auth, billing] = result.urls.map((url) => new URL(url));
    expect(auth!.host).toBe(billing!.host);
    expect(auth!.hostname).toMatch(/\.invalid$/);
    expect([auth!.searchParams.get('schema'), billing!.searchParams.get('schema')]).toEqual([
      'auth',
      'billing',
    ]);
    expect(result.afterFirstClose).toEqual([{ x: 1 }]);
    expect(result.servedAfterLastClose).toBe(false);
    expect(result.socketRefused).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
    expect(result.onWorker).toContain('only on this thread');
  }, 120_000);

  it('rejects naming the data directory that cannot start, after closing the ones that did', async () => {
    const dir = join(root, 'failing');

    const result = await inChild<{ error?: string; restartedGood: number }>('pglite-server-scenarios.ts', [
      'one-fails-to-start',
      dir,
    ]);

    expect(result.error).toContain(`PGlite could not start on ${join(dir, 'older-version')}`);
    expect(result.restartedGood).toBe(1);
  }, 120_000);
});
