import { z } from 'zod';
import { rateLimitsSchema } from '../limits/rate-limits';

/** `GET /api/status` data: SPEC §3 "System status" plus what the web client needs at start-up. */
export const systemStatusSchema = z.object({
  system_name: z.string(),
  version: z.string(),
  server_address: z.string(),
  chat_models: z.array(z.string()),
  github_oauth: z.boolean(),
  github_client_id: z.string(),
  google_oauth: z.boolean(),
  google_client_id: z.string(),
  discord_oauth: z.boolean(),
  discord_client_id: z.string(),
  discord_redirect_uri: z.string(),
  email_verification: z.boolean(),
  quota_per_unit: z.number().int(),
  default_currency: z.enum(['RUB', 'USD']),
  payment_test_enabled: z.boolean(),
  start_time: z.number().int(),
  /** Operators' switches (catalog.option): new accounts, password sign-in, card and crypto top-ups. */
  register_enabled: z.boolean(),
  password_login: z.boolean(),
  yookassa_enabled: z.boolean(),
  crypto_enabled: z.boolean(),
  /** The named groups' /v1 rate limits (GroupRateLimits; default, default_prev, vip, svip, enterprise): a company's own group is never public. */
  group_rate_limits: z.record(rateLimitsSchema),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;

/** The platform's release, shown in /api/status and the changelog. */
export const TOLLGATE_VERSION = '0.1.0';
