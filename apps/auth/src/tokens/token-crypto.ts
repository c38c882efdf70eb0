import { createHmac, randomInt } from 'node:crypto';
import {
  TOKEN_KEY_ENCRYPTION_PURPOSE,
  TOKEN_KEY_HASH_PURPOSE,
  TOKEN_KEY_PREFIX,
  TOKEN_KEY_RANDOM_LENGTH,
} from '@tollgate/contracts';
import { deriveKey, SecretBox } from '@tollgate/platform';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new API key: `sk-` and 48 characters from a CSPRNG. */
export function generateApiKey(): string {
  let random = '';
  for (let i = 0; i < TOKEN_KEY_RANDOM_LENGTH; i++) random += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return `${TOKEN_KEY_PREFIX}${random}`;
}

/** `sk-abcd…wxyz`: enough to tell keys apart, never enough to use one. */
export function maskApiKey(apiKey: string): string {
  const random = apiKey.slice(TOKEN_KEY_PREFIX.length);
  return `${TOKEN_KEY_PREFIX}${random.slice(0, 4)}…${random.slice(-4)}`;
}

/**
 * The two secrets of API keys, each derived from the master key for one purpose: an HMAC to look
 * keys up by, and AES-256-GCM so that the owner can copy a key again.
 */
export class ApiKeyCipher {
  private readonly hmacKey: Buffer;
  private readonly box: SecretBox;

  constructor(masterKey: Buffer) {
    this.hmacKey = deriveKey(masterKey, TOKEN_KEY_HASH_PURPOSE);
    this.box = new SecretBox(deriveKey(masterKey, TOKEN_KEY_ENCRYPTION_PURPOSE));
  }

  /** HMAC-SHA256 of the key, hex: what relay and the database look a key up by. */
  hash(apiKey: string): string {
    return createHmac('sha256', this.hmacKey).update(apiKey, 'utf8').digest('hex');
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts, a fresh random IV each time. */
  encrypt(apiKey: string): string {
    return this.box.seal(apiKey);
  }

  /** Throws when the text was not made by `encrypt` with this master key or was altered. */
  decrypt(encrypted: string): string {
    return this.box.open(encrypted);
  }
}
