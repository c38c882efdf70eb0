import { randomBytes } from 'node:crypto';
import { CHANNEL_KEY_ENCRYPTION_PURPOSE } from '@tollgate/contracts';
import { deriveKey, SecretBox } from '@tollgate/platform';
import { ChannelKeySealer, maskChannelKey } from './channel-key';

describe('channel keys', () => {
  it('masks long keys to four characters at each end, shorter ones to two, very short ones entirely', () => {
    expect(maskChannelKey(`sk-proj-${'x'.repeat(40)}WXYZ`)).toBe('sk-p…WXYZ');
    expect(maskChannelKey('abcdefghijklmn')).toBe('ab…mn');
    expect(maskChannelKey('short-key')).toBe('…');
    expect(maskChannelKey('ключ-ключ-ключ-ключ-ключ')).toBe('ключ…ключ');
  });

  it('seals a key so that only the channel-key purpose of the same master key opens it', () => {
    const master = randomBytes(32);
    const sealed = new ChannelKeySealer(master.toString('hex')).seal('sk-upstream-secret-0123456789');

    expect(sealed.keyEncrypted).not.toContain('upstream');
    expect(sealed.keyMasked).toBe('sk-u…6789');
    expect(new SecretBox(deriveKey(master, CHANNEL_KEY_ENCRYPTION_PURPOSE)).open(sealed.keyEncrypted)).toBe(
      'sk-upstream-secret-0123456789',
    );
    expect(() => new SecretBox(deriveKey(master, 'another purpose')).open(sealed.keyEncrypted)).toThrow();
  });
});
