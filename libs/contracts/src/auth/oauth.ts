import { z } from 'zod';
import type { AuthMessageKey } from './auth-message-keys';

const key = (message: AuthMessageKey) => message;

export const OAUTH_PROVIDERS = ['github', 'google', 'discord'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export const isOAuthProvider = (value: string): value is OAuthProvider =>
  (OAUTH_PROVIDERS as readonly string[]).includes(value);

/** How long a state from GET /api/oauth/state may be used (once). */
export const OAUTH_STATE_TTL_SECONDS = 600;

/** A consent flag in a query string: `true` or `1`. */
const consentFlag = z
  .string()
  .max(8)
  .transform((value) => value === 'true' || value === '1')
  .optional();

/**
 * GET /api/oauth/state[?aff=]: a one-time state bound to the browser. The consents a registration
 * needs may be given here (the web client asks for them before leaving for the provider) or on the
 * return call.
 */
export const oauthStateQuerySchema = z.object({
  aff: z
    .string({ invalid_type_error: key('value_too_long') })
    .trim()
    .max(32, key('value_too_long'))
    .optional(),
  agree_to_terms: consentFlag,
  agree_to_data_processing: consentFlag,
});
export type OAuthStateQuery = z.output<typeof oauthStateQuerySchema>;

/** GET /api/oauth/{provider}?code&state: the provider's answer, handed over by the web client. */
export const oauthCallbackQuerySchema = z.object({
  code: z
    .string({ required_error: key('oauth_failed'), invalid_type_error: key('oauth_failed') })
    .min(1, key('oauth_failed'))
    .max(2048, key('oauth_failed')),
  state: z
    .string({ required_error: key('oauth_state_invalid'), invalid_type_error: key('oauth_state_invalid') })
    .min(1, key('oauth_state_invalid'))
    .max(128, key('oauth_state_invalid')),
  agree_to_terms: consentFlag,
  agree_to_data_processing: consentFlag,
});
export type OAuthCallbackQuery = z.output<typeof oauthCallbackQuerySchema>;
