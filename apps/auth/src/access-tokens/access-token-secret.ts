import { createHash, randomBytes } from 'node:crypto';

/** A new personal access token: 192 random bits, 32 URL-safe characters. */
export const generateAccessToken = (): string => randomBytes(24).toString('base64url');

/**
 * What the users table keeps of a token. A plain SHA-256 suffices (no key, no salt): the token is
 * 192 random bits, so its hash cannot be reversed by guessing.
 */
export const hashAccessToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The token as a script sends it in `Authorization`: bare, or after `Bearer `. */
export const accessTokenFromAuthorization = (header: string): string =>
  header.replace(/^Bearer\s+/i, '').trim();
