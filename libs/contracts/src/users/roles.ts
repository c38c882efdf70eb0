import { z } from 'zod';

/** new-api's role numbers. */
export enum Role {
  User = 1,
  Admin = 10,
  Root = 100,
}

export enum UserStatus {
  Enabled = 1,
  Disabled = 2,
}

export const USER_GROUPS = ['default', 'default_prev', 'vip', 'svip', 'enterprise'] as const;
/** Groups are open-ended (an enterprise client gets its own); these are the named ones. */
export const GROUP_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
export const groupNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(GROUP_NAME_PATTERN, 'group names are letters, digits, "_" and "-"');
