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

// PGlite's dynamic import() cannot run inside Jest's sandbox: the server runs in a child process.
describe('startPgliteServer', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tollgate-pglite-server-'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('serves PGlite on a loopback port, creating missing parent folders, and keeps data across restarts', async () => {
    const dataDir = join(root, 'data', 'pg', 'billing');

    const { stdout } = await run(
      process.execPath,
      ['-r', join(SUPPORT, 'ts-register.js'), join(SUPPORT, 'pglite-server-roundtrip.ts'), dataDir],
      { timeout: 90_000 },
    );
    const result = JSON.parse(stdout) as Roundtrip;

    expect(result.firstUrl).toMatch(/^postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(result.firstUrl).not.toBe('postgres://postgres:postgres@127.0.0.1:0/postgres');
    expect(result.notes).toEqual([{ body: 'kept' }]);
    expect(result.version).toContain('PGlite');
    expect((await stat(dataDir)).isDirectory()).toBe(true);
  }, 120_000);
});
