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
  setting: z.string(),
});
export type SelfUser = z.infer<typeof selfUserSchema>;
