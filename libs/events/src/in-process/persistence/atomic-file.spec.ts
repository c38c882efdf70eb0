import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeLinesAtomic } from './atomic-file';

describe('writeLinesAtomic', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'atomic-file-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces the file with every line, in order, across many slices', async () => {
    const path = join(dir, 'segment.jsonl');
    writeFileSync(path, 'old\n');
    const items = Array.from({ length: 1300 }, (_, i) => i);
    await writeLinesAtomic(path, items, (i) => `${i}\n`, 100);
    expect(readFileSync(path, 'utf8')).toBe(items.map((i) => `${i}\n`).join(''));
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });

  it('encodes one slice per turn: the loop runs between slices', async () => {
    const path = join(dir, 'segment.jsonl');
    let encoded = 0;
    const encodedAtImmediates: number[] = [];
    const tick = () => {
      encodedAtImmediates.push(encoded);
      if (encoded < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    await writeLinesAtomic(
      path,
      Array.from({ length: 1000 }, (_, i) => i),
      (i) => (encoded++, `${i}\n`),
      100,
    );
    // Between two turns of the loop at most one slice was encoded.
    const steps = encodedAtImmediates.slice(1).map((count, i) => count - encodedAtImmediates[i]);
    expect(Math.max(...steps)).toBeLessThanOrEqual(100);
    expect(new Set(encodedAtImmediates).size).toBeGreaterThan(5);
  });

  it('writes an empty file for no lines', async () => {
    const path = join(dir, 'segment.jsonl');
    await writeLinesAtomic(path, [], String);
    expect(readFileSync(path, 'utf8')).toBe('');
  });
});
