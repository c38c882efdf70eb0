import { z } from 'zod';

/** What login answers in the envelope's data (new-api's shape). */
export const sessionUserSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  display_name: z.string(),
  role: z.number().int(),
  status: z.number().int(),
  group: z.string(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** GET /api/user/self: the account with its quota figures (quota units) from billing. */
export const selfUserSchema = sessionUserSchema.extend({
  email: z.string().nullable(),
  quota: z.number().int(),
  used_quota: z.number().int(),
  request_count: z.number().int(),
  aff_code: z.string().nullable(),
  aff_count: z.number().int(),
  aff_quota: z.number().int(),
  aff_history_quota: z.number().int(),
  inviter_id: z.number().int().nullable(),
  /** The settings document as JSON text (see userSettingsSchema). */
  setting: z.string(),
  /** Linked OAuth accounts' ids at each provider, '' when not linked (new-api's fields). */
  github_id: z.string(),
  google_id: z.string(),
  discord_id: z.string(),
});
export type SelfUser = z.infer<typeof selfUserSchema>;

/** A user as the admin list and reads show it (new-api's fields). */
export const adminUserViewSchema = sessionUserSchema.extend({
  email: z.string().nullable(),
  quota: z.number().int(),
  used_quota: z.number().int(),
  request_count: z.number().int(),
  aff_code: z.string().nullable(),
  inviter_id: z.number().int().nullable(),
  github_id: z.string(),
  google_id: z.string(),
  discord_id: z.string(),
  created_time: z.number().int(),
});
export type AdminUserView = z.infer<typeof adminUserViewSchema>;
