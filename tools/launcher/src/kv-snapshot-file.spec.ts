import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryKvStore } from '@tollgate/kv';
import { KvSnapshotFile } from './kv-snapshot-file';

describe('KvSnapshotFile', () => {
  let dir: string;
  let file: string;
  const stores: MemoryKvStore[] = [];
  const newStore = () => {
    const store = new MemoryKvStore({ sweepIntervalMs: 0 });
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kv-snapshot-'));
    file = join(dir, 'kv-snapshot.json');
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the store on stop and a restarted store reads it back: a session outlives the process', async () => {
    const before = newStore();
    const snapshot = new KvSnapshotFile(before, file, () => undefined);
    expect(snapshot.load()).toBe(0);
    snapshot.start(60_000);
    await before.set('auth:session:secret', '{"user_id":5}', 3_600_000);
    await before.hit('relay:rate:key-1', 10, 60_000);
    await snapshot.stop();

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['kv-snapshot.json']);
    const after = newStore();
    expect(new KvSnapshotFile(after, file, () => undefined).load()).toBe(1);
    await expect(after.get('auth:session:secret')).resolves.toBe('{"user_id":5}');
    expect(await after.ttl('auth:session:secret')).toBeGreaterThan(3_500_000);
  });

  it('keeps the latest state when saves overlap', async () => {
    const store = newStore();
    const snapshot = new KvSnapshotFile(store, file, () => undefined);
    await store.set('k', 'first');
    const first = snapshot.save();
    await store.set('k', 'second');
    await Promise.all([first, snapshot.save()]);
    const reread = newStore();
    new KvSnapshotFile(reread, file, () => undefined).load();
    await expect(reread.get('k')).resolves.toBe('second');
  });

  it('starts without a damaged snapshot and says so', () => {
    writeFileSync(file, '{"version":1,"entries":[{"key":"k"');
    const lines: string[] = [];
    const store = newStore();
    expect(new KvSnapshotFile(store, file, (line) => lines.push(line)).load()).toBe(0);
    expect(lines).toEqual([expect.stringContaining('could not be read; starting without it')]);
  });

  it('reports a save that fails and leaves no temporary file behind', async () => {
    const store = newStore();
    const lines: string[] = [];
    const snapshot = new KvSnapshotFile(store, join(dir, 'missing-dir', 'kv.json'), (line) =>
      lines.push(line),
    );
    await store.set('k', 'v');
    await snapshot.stop();
    expect(lines).toEqual([expect.stringContaining('could not save the key-value snapshot')]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
