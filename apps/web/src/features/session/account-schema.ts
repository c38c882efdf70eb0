import { selfUserSchema } from '@tollgate/contracts';
import { z } from 'zod';

/**
 * `GET /api/user/self`: the account with its balance in quota units, plus the linked OAuth
 * accounts when auth reports them (an empty or missing id means not linked).
 */
export const accountSchema = selfUserSchema.extend({
  github_id: z.string().nullish(),
  google_id: z.string().nullish(),
  discord_id: z.string().nullish(),
});
export type Account = z.infer<typeof accountSchema>;
