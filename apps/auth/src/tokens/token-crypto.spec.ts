import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { TOKEN_KEY_HASH_PURPOSE } from '@tollgate/contracts';
import { ApiKeyCipher, generateApiKey, maskApiKey } from './token-crypto';
import { SealedTextError } from '@tollgate/platform';

describe('API key crypto', () => {
  const master = randomBytes(32);
  const cipher = new ApiKeyCipher(master);

  it('makes sk- keys of 48 random alphanumerics, different every time', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
  });

  it('round-trips a key through encryption with a fresh IV each time', () => {
    const key = generateApiKey();
    const first = cipher.encrypt(key);
    const second = cipher.encrypt(key);
    expect(first).not.toBe(second);
    expect(first).not.toContain(key.slice(3));
    expect(cipher.decrypt(first)).toBe(key);
    expect(cipher.decrypt(second)).toBe(key);
  });

  it('refuses altered ciphertext, an altered tag, another master key and foreign text', () => {
    const encrypted = cipher.encrypt(generateApiKey());
    const [format, iv, tag, body] = encrypted.split('.') as [string, string, string, string];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      return bytes.toString('base64url');
    };
    expect(() => cipher.decrypt([format, iv, tag, flip(body)].join('.'))).toThrow();
    expect(() => cipher.decrypt([format, iv, flip(tag), body].join('.'))).toThrow();
    expect(() => new ApiKeyCipher(randomBytes(32)).decrypt(encrypted)).toThrow();
    expect(() => cipher.decrypt('sk-plain')).toThrow(SealedTextError);
  });

  it('hashes a key stably as HMAC-SHA256 under the lookup key derived for its purpose', () => {
    const key = generateApiKey();
    const lookupKey = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), TOKEN_KEY_HASH_PURPOSE, 32));
    expect(cipher.hash(key)).toBe(createHmac('sha256', lookupKey).update(key).digest('hex'));
    expect(new ApiKeyCipher(master).hash(key)).toBe(cipher.hash(key));
    expect(cipher.hash(key)).not.toBe(new ApiKeyCipher(randomBytes(32)).hash(key));
  });

  it('masks a key to its first and last four random characters', () => {
    expect(maskApiKey(`sk-abcd${'x'.repeat(40)}wxyz`)).toBe('sk-abcd…wxyz');
  });
});
