import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '@tollgate/runtime';
import { lockDataDir } from '../../src/data-dir-lock';
import { startEmbedded } from '../../src/embedded';

function listenOnce(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

/**
 * The in-process bus reads its files when it is made, before any service starts: a start that fails
 * there gives back the data directory's lock and every port it held, so the same process can start
 * again once the data is mended.
 */
describe('startEmbedded with a damaged event bus directory', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tollgate-damaged-bus-'));
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('fails, and leaves the data directory unlocked and PORT free', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir, { recursive: true });
    // Where the bus keeps a folder, a file.
    writeFileSync(join(dataDir, 'bus'), 'not a folder');
    const [port] = (await freePorts(1)) as [number];
    const env = { PORT: String(port), HOST: '127.0.0.1', TOLLGATE_DATA_DIR: dataDir };

    await expect(startEmbedded({ env, repoRoot: root })).rejects.toThrow();

    const lock = await lockDataDir(dataDir);
    await lock.release();
    await expect(listenOnce(port)).resolves.toBeUndefined();
  });
});
