import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import {
  TOKEN_KEY_ENCRYPTION_PURPOSE,
  TOKEN_KEY_HASH_PURPOSE,
  TOKEN_KEY_PREFIX,
  TOKEN_KEY_RANDOM_LENGTH,
} from '@tollgate/contracts';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

/** TOLLGATE_ENCRYPTION_KEY as 32 bytes: 64 hex characters or base64 of 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== 32) throw new Error('TOLLGATE_ENCRYPTION_KEY must be 32 bytes, base64 or hex');
  return bytes;
}

const derive = (master: Buffer, purpose: string) =>
  Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));

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
  private readonly encryptionKey: Buffer;

  constructor(masterKey: Buffer) {
    this.hmacKey = derive(masterKey, TOKEN_KEY_HASH_PURPOSE);
    this.encryptionKey = derive(masterKey, TOKEN_KEY_ENCRYPTION_PURPOSE);
  }

  /** HMAC-SHA256 of the key, hex: what relay and the database look a key up by. */
  hash(apiKey: string): string {
    return createHmac('sha256', this.hmacKey).update(apiKey, 'utf8').digest('hex');
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts, a fresh random IV each time. */
  encrypt(apiKey: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv, { authTagLength: TAG_BYTES });
    const ciphertext = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
    return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws when the text was not made by `encrypt` with this master key or was altered. */
  decrypt(encrypted: string): string {
    const [format, iv, tag, ciphertext, ...rest] = encrypted.split('.');
    if (format !== FORMAT || !iv || !tag || ciphertext === undefined || rest.length > 0) {
      throw new Error('Not an encrypted API key');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}
