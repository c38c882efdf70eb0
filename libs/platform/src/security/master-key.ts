import { hkdfSync } from 'node:crypto';

const KEY_BYTES = 32;

/** TOLLGATE_ENCRYPTION_KEY as 32 bytes: 64 hex characters or base64 of 32 bytes. */
export function parseMasterKey(text: string): Buffer {
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== KEY_BYTES) throw new Error('TOLLGATE_ENCRYPTION_KEY must be 32 bytes, base64 or hex');
  return bytes;
}

/**
 * A key for one purpose (HKDF-SHA256 with the purpose as info), so that no two uses of the master key
 * (a lookup HMAC, an encryption) ever share key material.
 */
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, KEY_BYTES));
}
