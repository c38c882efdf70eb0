import type { User } from './user.entity';

type RevocableUser = Pick<User, 'sessionsValidAfter' | 'accessTokenHash'>;

/**
 * Signs the user out everywhere as of `at` (epoch ms): every browser session begun before it stops
 * resolving, and the personal access token stops working (a new one must be issued). Used when
 * the password changes, so whoever knew the old one loses the access it gave.
 */
export function revokeSignIns(user: RevocableUser, at: number): void {
  user.sessionsValidAfter = at;
  user.accessTokenHash = null;
}

/**
 * Whether a session begun at `createdAt` (epoch ms) was revoked. A session begun in the same
 * millisecond as the mark stays: the caller's fresh session is started right after the mark.
 */
export const sessionRevoked = (createdAt: number, user: Pick<User, 'sessionsValidAfter'>): boolean =>
  user.sessionsValidAfter !== null && createdAt < user.sessionsValidAfter;
