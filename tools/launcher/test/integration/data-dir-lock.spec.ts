import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockDataDir } from '../../src/data-dir-lock';

describe('lockDataDir', () => {
  let root: string;
  let dataDir: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tollgate-lock-'));
    dataDir = join(root, 'data');
    mkdirSync(dataDir);
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('refuses a second holder with a message naming the directory, and is free again once released', async () => {
    const first = await lockDataDir(dataDir);
    await expect(lockDataDir(dataDir)).rejects.toThrow(
      `The data directory ${dataDir} is in use by another running Tollgate platform`,
    );
    await first.release();
    const second = await lockDataDir(dataDir);
    await second.release();
  });

  it('meets the same lock through another spelling of the path', async () => {
    const alias = join(root, 'alias');
    symlinkSync(dataDir, alias);
    const held = await lockDataDir(dataDir);
    await expect(lockDataDir(alias)).rejects.toThrow(/in use by another running Tollgate platform/);
    await held.release();
  });

  it('lets two different directories be locked at once', async () => {
    const other = join(root, 'other');
    mkdirSync(other);
    const a = await lockDataDir(dataDir);
    const b = await lockDataDir(other);
    await Promise.all([a.release(), b.release()]);
  });
});
