import { randomBytes } from 'node:crypto';
import { InvalidInternalTokenError } from '../identity/internal-token';
import { deriveKey, parseMasterKey } from './master-key';
import { SealedTextError, SecretBox } from './secret-box';
import { ServiceTokenSigner, verifyServiceToken } from './service-token';

const SECRET = 'a-service-secret-that-is-long-enough-0123456789';

describe('master key', () => {
  it('accepts 64 hex characters or base64 of 32 bytes and nothing else', () => {
    const bytes = randomBytes(32);
    expect(parseMasterKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseMasterKey(bytes.toString('base64'))).toEqual(bytes);
    expect(() => parseMasterKey(randomBytes(16).toString('hex'))).toThrow(/32 bytes/);
  });

  it('derives a different key per purpose, the same one each time', () => {
    const master = randomBytes(32);
    expect(deriveKey(master, 'a')).toEqual(deriveKey(master, 'a'));
    expect(deriveKey(master, 'a')).not.toEqual(deriveKey(master, 'b'));
    expect(deriveKey(master, 'a')).toHaveLength(32);
  });
});

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, with a fresh IV every time', () => {
    const sealed = box.seal('sk-upstream-Ключ');
    expect(box.open(sealed)).toBe('sk-upstream-Ключ');
    expect(box.seal('same')).not.toBe(box.seal('same'));
    expect(sealed).not.toContain('sk-upstream');
  });

  it('refuses altered text, another key and garbage', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] ^= 1;
    parts[3] = flipped.toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow(SealedTextError);
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(SealedTextError);
    expect(() => box.open('v1.x')).toThrow(SealedTextError);
  });
});

describe('service tokens', () => {
  it('verifies for its audience only', async () => {
    const token = await new ServiceTokenSigner(SECRET, 'relay:channel-test').token();
    await expect(verifyServiceToken(token, SECRET, 'relay:channel-test')).resolves.toBeUndefined();
    await expect(verifyServiceToken(token, SECRET, 'billing:account-quota')).rejects.toThrow(
      InvalidInternalTokenError,
    );
    await expect(verifyServiceToken(token, `${SECRET}x`, 'relay:channel-test')).rejects.toThrow(
      InvalidInternalTokenError,
    );
  });

  it('reuses a token until shortly before it expires, then signs a new one', async () => {
    let now = 1_800_000_000;
    const signer = new ServiceTokenSigner(SECRET, 'aud', () => now);
    const first = await signer.token();
    now += 30;
    expect(await signer.token()).toBe(first);
    now += 20;
    expect(await signer.token()).not.toBe(first);
  });

  it('refuses an expired token as expired', async () => {
    const token = await new ServiceTokenSigner(
      SECRET,
      'aud',
      () => Math.floor(Date.now() / 1000) - 600,
    ).token();
    await expect(verifyServiceToken(token, SECRET, 'aud')).rejects.toMatchObject({ reason: 'expired' });
  });
});
