import type { IncomingHttpHeaders } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import {
  ErrorCode,
  SESSION_COOKIE_NAME,
  SESSION_ENTRY_PATHS,
  TOKEN_KEY_PREFIX,
  type RouteEntry,
  type SessionIdentity,
  type SessionLookupRequest,
} from '@tollgate/contracts';
import {
  accessMessage,
  INTERNAL_IDENTITY_HEADER,
  localeOfHeaders,
  signInternalToken,
  type AccessMessageKey,
  type Role,
} from '@tollgate/platform';
import type { SessionResolver } from './session-resolver';

export type SessionDecision =
  | { kind: 'forward'; headers: Record<string, string> }
  | { kind: 'refuse'; status: number; code: ErrorCode; message: string };

const NEW_API_USER_HEADER = 'new-api-user';
const FORWARD_ANONYMOUSLY: SessionDecision = Object.freeze({ kind: 'forward', headers: Object.freeze({}) });

/** The path without its query; the same string when it has none (no array per call, as split made). */
function pathnameOf(path: string): string {
  const queryAt = path.indexOf('?');
  return queryAt === -1 ? path : path.slice(0, queryAt);
}
const isUnder = (pathname: string, prefix: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

/** A refusal in the caller's language (Accept-Language, Russian by default), as every service answers. */
function refusal(
  status: number,
  code: ErrorCode,
  key: AccessMessageKey,
  headers: IncomingHttpHeaders,
): SessionDecision {
  return { kind: 'refuse', status, code, message: accessMessage(key, localeOfHeaders(headers)) };
}

/** The caller's credential on /api: the session cookie, else a personal access token as Authorization. */
function credentialOf(headers: IncomingHttpHeaders): SessionLookupRequest | undefined {
  const cookie = headers.cookie;
  const session = cookie ? fastifyCookie.parse(cookie)[SESSION_COOKIE_NAME] : undefined;
  if (session) return { session };
  const authorization = headers.authorization?.trim();
  if (!authorization || authorization.length > 256) return undefined;
  // An `sk-` API key is for /v1; on /api it names nobody, so auth is not asked about it.
  const bare = authorization.replace(/^Bearer\s+/i, '');
  return bare.startsWith(TOKEN_KEY_PREFIX) ? undefined : { access_token: authorization };
}

/**
 * Who is calling an /api route, as far as the browser session (or a script's personal access token)
 * tells. A signed-in caller must name themselves in New-Api-User (a page of another site cannot set it); the route table's minimum role
 * is enforced here; services get the caller as a signed internal identity, or no identity at all
 * and decide for themselves whether the route is public.
 */
export class SessionStep {
  constructor(
    private readonly sessions: SessionResolver,
    private readonly internalTokenSecret: string,
  ) {}

  /**
   * What to do with the call. Synchronous when no session is looked up and no identity signed (every
   * /v1 and /v1beta call, an /api call without a credential), so the hot path waits for no promise.
   */
  decide(
    path: string,
    route: RouteEntry,
    headers: IncomingHttpHeaders,
  ): SessionDecision | Promise<SessionDecision> {
    const pathname = pathnameOf(path);
    const credential = isUnder(pathname, '/api') ? credentialOf(headers) : undefined;
    if (!credential) return this.decideFor(undefined, route, headers);
    return this.sessionIdentity(pathname, credential, headers).then((identity) =>
      this.decideFor(identity, route, headers),
    );
  }

  private decideFor(
    identity: SessionIdentity | 'mismatch' | undefined,
    route: RouteEntry,
    headers: IncomingHttpHeaders,
  ): SessionDecision | Promise<SessionDecision> {
    if (identity === 'mismatch') {
      return refusal(401, ErrorCode.UserHeaderMismatch, 'user_header_mismatch', headers);
    }
    if (route.minRole !== undefined) {
      if (!identity) return refusal(401, ErrorCode.Unauthenticated, 'authentication_required', headers);
      if (identity.role < route.minRole) {
        return refusal(403, ErrorCode.Forbidden, 'insufficient_permissions', headers);
      }
    }
    if (!identity) return FORWARD_ANONYMOUSLY;
    return signInternalToken(
      {
        userId: identity.userId,
        role: identity.role as Role,
        group: identity.group,
        sessionId: identity.sessionId,
        via: identity.via ?? 'session',
      },
      this.internalTokenSecret,
    ).then((token): SessionDecision => ({ kind: 'forward', headers: { [INTERNAL_IDENTITY_HEADER]: token } }));
  }

  private async sessionIdentity(
    pathname: string,
    credential: SessionLookupRequest,
    headers: IncomingHttpHeaders,
  ): Promise<SessionIdentity | 'mismatch' | undefined> {
    const identity = await this.sessions.resolve(credential);
    if (!identity) return undefined;
    if (headers[NEW_API_USER_HEADER] === String(identity.userId)) return identity;
    // Signing in or out with a stale cookie must work; there the session is simply not used.
    return SESSION_ENTRY_PATHS.some((entry) => isUnder(pathname, entry)) ? undefined : 'mismatch';
  }
}
