import { z } from 'zod';
import { SERVICE_TOKEN_ISSUER } from '../internal/service-calls';

/** The browser session cookie: HttpOnly, SameSite=Lax, Secure behind TLS. */
export const SESSION_COOKIE_NAME = 'tollgate_session';

/**
 * The gateway resolves a session cookie through auth. The call is internal: outside /api, so the
 * gateway never routes a client to it, and authenticated by a short-lived service token (a JWT
 * signed with TOLLGATE_INTERNAL_TOKEN_SECRET for this audience) in SESSION_LOOKUP.header.
 */
export const SESSION_LOOKUP = {
  method: 'POST',
  path: '/internal/sessions/resolve',
  header: 'x-tollgate-service-token',
  issuer: SERVICE_TOKEN_ISSUER,
  audience: 'tollgate-auth:session-lookup',
} as const;

/**
 * What the gateway asks about: a session cookie's value, or the personal access token a script sends
 * as `Authorization` on /api (GET /api/user/token issues it; `Bearer ` in front is allowed).
 */
export const sessionLookupRequestSchema = z.union([
  z.object({ session: z.string().min(1).max(256) }).strict(),
  z.object({ access_token: z.string().min(1).max(256) }).strict(),
]);
export type SessionLookupRequest = z.infer<typeof sessionLookupRequestSchema>;

/** How the caller proved who they are; absent means a session (answers of older auth replicas). */
export const SESSION_VIA = ['session', 'access_token'] as const;
export type SessionVia = (typeof SESSION_VIA)[number];

/** A live session's caller, with the user's current role and group. */
export const sessionIdentitySchema = z.object({
  userId: z.number().int().positive(),
  role: z.number().int(),
  group: z.string().min(1),
  /** A public id of the session (or of the access token), never the cookie value or the token. */
  sessionId: z.string().min(1),
  via: z.enum(SESSION_VIA).optional(),
});
export type SessionIdentity = z.infer<typeof sessionIdentitySchema>;

/**
 * Calls that sign a caller in or out. A stale cookie must not lock anyone out of them, so the
 * gateway ignores a session there unless New-Api-User matches it, instead of refusing with 401.
 */
export const SESSION_ENTRY_PATHS: readonly string[] = [
  '/api/user/login',
  '/api/user/register',
  '/api/user/logout',
  '/api/user/reset',
  '/api/reset_password',
  '/api/verification',
];
