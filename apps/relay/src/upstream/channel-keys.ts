import { CHANNEL_KEY_ENCRYPTION_PURPOSE, type CatalogChannel } from '@tollgate/contracts';
import { deriveKey, SecretBox } from '@tollgate/platform';

/** A channel whose sealed key cannot be opened with this platform's key (admin sealed it with another). */
export class ChannelKeyError extends Error {
  constructor(readonly channelId: number) {
    super(`the key of channel ${channelId} cannot be decrypted`);
    this.name = 'ChannelKeyError';
  }
}

/**
 * Opens channels' upstream keys, once per channel version: an updated channel arrives as a new object,
 * so a weak map forgets the old key with the old entity.
 */
export class ChannelKeys {
  private readonly box: SecretBox;
  private readonly opened = new WeakMap<CatalogChannel, string>();

  constructor(masterKey: Buffer) {
    this.box = new SecretBox(deriveKey(masterKey, CHANNEL_KEY_ENCRYPTION_PURPOSE));
  }

  keyOf(channel: CatalogChannel): string {
    let key = this.opened.get(channel);
    if (key === undefined) {
      try {
        key = this.box.open(channel.key_encrypted);
      } catch {
        throw new ChannelKeyError(channel.id);
      }
      this.opened.set(channel, key);
    }
    return key;
  }
}
