import { CHANNEL_KEY_ENCRYPTION_PURPOSE } from '@tollgate/contracts';
import { deriveKey, parseMasterKey, SecretBox } from '@tollgate/platform';

/**
 * Enough of an upstream key to tell keys apart, never enough to use one: four characters at each end of
 * a long key, two of a short one, nothing of a very short one.
 */
export function maskChannelKey(key: string): string {
  const characters = [...key];
  const shown = characters.length >= 24 ? 4 : characters.length >= 12 ? 2 : 0;
  if (shown === 0) return '…';
  return `${characters.slice(0, shown).join('')}…${characters.slice(-shown).join('')}`;
}

/** Seals upstream keys with the key derived from TOLLGATE_ENCRYPTION_KEY for channel keys (relay opens them). */
export class ChannelKeySealer {
  private readonly box: SecretBox;

  constructor(masterKeyText: string) {
    this.box = new SecretBox(deriveKey(parseMasterKey(masterKeyText), CHANNEL_KEY_ENCRYPTION_PURPOSE));
  }

  seal(key: string): { keyEncrypted: string; keyMasked: string } {
    return { keyEncrypted: this.box.seal(key), keyMasked: maskChannelKey(key) };
  }
}
