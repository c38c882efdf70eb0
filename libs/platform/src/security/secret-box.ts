import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

export class SealedTextError extends Error {
  constructor(message = 'Not a sealed value of this key') {
    super(message);
    this.name = 'SealedTextError';
  }
}

/** AES-256-GCM for secrets kept at rest (API keys, upstream channel keys): authenticated, a fresh IV each time. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Throws SealedTextError when the text was not sealed with this key or was altered. */
  open(sealed: string): string {
    const [format, iv, tag, ciphertext, ...rest] = sealed.split('.');
    if (format !== FORMAT || !iv || !tag || ciphertext === undefined || rest.length > 0)
      throw new SealedTextError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SealedTextError();
    }
  }
}
