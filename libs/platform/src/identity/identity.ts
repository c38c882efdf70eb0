import { z } from 'zod';
import { Role } from './role';

/** How the gateway authenticated the caller. */
export const identityViaSchema = z.enum(['session', 'access_token', 'api']);

/** The caller as the gateway vouches for it in the internal identity token. */
export const identitySchema = z.object({
  userId: z.number().int().positive(),
  role: z.nativeEnum(Role),
  group: z.string().min(1).optional(),
  sessionId: z.string().min(1).optional(),
  via: identityViaSchema,
});

export type Identity = z.infer<typeof identitySchema>;
export type IdentityVia = z.infer<typeof identityViaSchema>;
