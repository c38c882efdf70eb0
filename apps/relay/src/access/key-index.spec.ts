import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { TOKEN_KEY_HASH_PURPOSE, type IdentityToken } from '@tollgate/contracts';
import type { CompactedTable } from '@tollgate/events';
import { ApiKeyHasher, KeyIndex } from './key-index';
import { aToken } from '../../test/support/fixtures';

/** A table whose changes the test drives by hand. */
function fakeTable(initial: IdentityToken[]) {
  const rows = new Map(initial.map((t) => [String(t.id), t]));
  const listeners: ((key: string, value: IdentityToken | undefined) => void)[] = [];
  const table = {
    entries: () => rows.entries(),
    onChange: (listener: (key: string, value: IdentityToken | undefined) => void) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
  } as unknown as CompactedTable<IdentityToken>;
  const change = (key: string, value: IdentityToken | undefined) => {
    if (value === undefined) rows.delete(key);
    else rows.set(key, value);
    for (const listener of listeners) listener(key, value);
  };
  return { table, change, listeners };
}

describe('ApiKeyHasher', () => {
  it('computes the same HMAC as auth: HKDF-SHA256(master, lookup purpose), hex of the whole key', () => {
    const master = randomBytes(32);
    const lookupKey = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), TOKEN_KEY_HASH_PURPOSE, 32));
    const expected = createHmac('sha256', lookupKey).update('sk-abc', 'utf8').digest('hex');
    expect(new ApiKeyHasher(master).hash('sk-abc')).toBe(expected);
  });

  it('answers the same hash again for a key it has seen, and distinct hashes for distinct keys', () => {
    const hasher = new ApiKeyHasher(randomBytes(32));
    const first = hasher.hash('sk-one');
    expect(hasher.hash('sk-two')).not.toBe(first);
    expect(hasher.hash('sk-one')).toBe(first);
    const long = 'sk-' + 'x'.repeat(1000);
    expect(hasher.hash(long)).toBe(hasher.hash(long));
  });
});

describe('KeyIndex', () => {
  it('finds the tokens present at start by their hash', () => {
    const token = aToken({ id: 1, key_hash: 'a'.repeat(64) });
    const { table } = fakeTable([token]);
    expect(new KeyIndex(table).find('a'.repeat(64))).toEqual(token);
  });

  it('follows updates, re-keyed hashes and tombstones', () => {
    const { table, change, listeners } = fakeTable([aToken({ id: 1, key_hash: 'a'.repeat(64) })]);
    const index = new KeyIndex(table);

    change('1', aToken({ id: 1, key_hash: 'b'.repeat(64), status: 2 }));
    expect(index.find('a'.repeat(64))).toBeUndefined();
    expect(index.find('b'.repeat(64))?.status).toBe(2);

    change('1', undefined);
    expect(index.find('b'.repeat(64))).toBeUndefined();
    expect(index.size).toBe(0);

    index.close();
    expect(listeners).toHaveLength(0);
  });
});
