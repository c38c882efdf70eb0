import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '@tollgate/runtime';
import { lockDataDir } from '../../src/data-dir-lock';
import { startEmbedded } from '../../src/embedded';

/**
 * An embedded start whose PORT another program has fails at once, and gives back what it held so
 * far: a caller in the same process (a test, the bench) can start on that data directory again.
 */
describe('startEmbedded with its PORT in use', () => {
  let root: string;
  let other: Server;
  let port: number;

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'tollgate-port-in-use-'));
    [port] = (await freePorts(1)) as [number];
    other = createServer();
    await new Promise<void>((resolve) => other.listen(port, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    await new Promise<void>((resolve) => other.close(() => resolve()));
    rmSync(root, { recursive: true, force: true });
  });

  it('fails with EADDRINUSE and leaves the data directory unlocked', async () => {
    const dataDir = join(root, 'data');
    const env = { PORT: String(port), HOST: '127.0.0.1', TOLLGATE_DATA_DIR: dataDir };
    await expect(startEmbedded({ env, repoRoot: root })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    const lock = await lockDataDir(dataDir);
    await lock.release();
  });
});
