import { pbkdf2 } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendFile } from './append-file';

describe('AppendFile', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'append-file-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has a small append on disk when append returns: the thread pool, and its wake-up of the loop, are not involved', async () => {
    // Every pool thread busy: an append handed to the pool would wait behind these.
    const busy = Array.from(
      { length: 16 },
      () => new Promise((resolve) => pbkdf2('pool', 'busy', 50_000, 32, 'sha256', resolve)),
    );
    const file = new AppendFile(join(dir, 'log.jsonl'));
    const appended = file.append('{"o":1}\n');
    expect(readFileSync(join(dir, 'log.jsonl'), 'utf8')).toBe('{"o":1}\n');
    await Promise.all([appended, ...busy]);
    file.close();
  });

  it('appends large and small writes in order', async () => {
    const file = new AppendFile(join(dir, 'log.jsonl'));
    const big = `${'x'.repeat(200 * 1024)}\n`;
    await file.append('a\n');
    await file.append(big);
    await file.append('b\n');
    expect(readFileSync(join(dir, 'log.jsonl'), 'utf8')).toBe(`a\n${big}b\n`);
    file.close();
  });
});
