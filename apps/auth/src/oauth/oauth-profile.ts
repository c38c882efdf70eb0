import { DISPLAY_NAME_MAX_LENGTH } from '@tollgate/contracts';

/** What auth keeps of a provider's profile: the stable id and a name to show. */
export interface OAuthIdentity {
  providerId: string;
  name: string;
}

const SHOWABLE_NAME = /^[\p{L}\p{N}\p{M} _.'-]+$/u;

/**
 * The provider account's id and a display name from a passport profile (GitHub's login, Google's
 * name, Discord's username); a name that is not plain text is not shown. Null without an id.
 */
export function oauthIdentityOf(profile: unknown): OAuthIdentity | null {
  if (typeof profile !== 'object' || profile === null) return null;
  const fields = profile as Record<string, unknown>;
  const id = fields['id'];
  if (
    (typeof id !== 'string' && typeof id !== 'number') ||
    String(id).length === 0 ||
    String(id).length > 64
  ) {
    return null;
  }
  const candidates = [fields['username'], fields['displayName'], fields['global_name']];
  const name = candidates
    .filter((value): value is string => typeof value === 'string')
    .map((value) => value.trim().slice(0, DISPLAY_NAME_MAX_LENGTH))
    .find((value) => SHOWABLE_NAME.test(value));
  return { providerId: String(id), name: name ?? '' };
}
