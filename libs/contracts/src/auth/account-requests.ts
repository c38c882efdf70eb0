import { z } from 'zod';
import { Role, UserStatus } from '../users/roles';
import type { AuthMessageKey } from './auth-message-keys';
import {
  emailField,
  NO_CONTROL_CHARACTERS,
  passwordField,
  requiredText,
  USERNAME_MAX_LENGTH,
  USERNAME_PATTERN,
} from './auth-requests';

const key = (message: AuthMessageKey) => message;

export const DISPLAY_NAME_MAX_LENGTH = 20;
export const USER_PAGE_DEFAULT_SIZE = 10;
export const DEFAULT_CURRENCIES = ['RUB', 'USD'] as const;
export type DefaultCurrency = (typeof DEFAULT_CURRENCIES)[number];
export const INTERFACE_LANGUAGES = ['ru', 'en'] as const;
const MAX_USER_ID = 2_147_483_647;
/** Letters, digits and marks of any script, spaces, "_", ".", "'" and "-": a name, never markup or a statement. */
const DISPLAY_NAME_PATTERN = /^[\p{L}\p{N}\p{M} _.'-]+$/u;

/** An optional field where an empty string (what forms send for "unchanged") means absent. */
const blankAsAbsent = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const displayName = (invalid: AuthMessageKey) =>
  z
    .string({ invalid_type_error: key(invalid) })
    .trim()
    .min(1, key(invalid))
    .max(DISPLAY_NAME_MAX_LENGTH, key(invalid))
    .regex(DISPLAY_NAME_PATTERN, key(invalid));

const username = (missing: AuthMessageKey) =>
  requiredText(missing)
    .trim()
    .min(1, key(missing))
    .max(USERNAME_MAX_LENGTH, key('username_invalid'))
    .regex(USERNAME_PATTERN, key('username_invalid'));

const userId = z
  .number({ required_error: key('user_field_invalid'), invalid_type_error: key('user_field_invalid') })
  .int(key('user_field_invalid'))
  .positive(key('user_field_invalid'))
  .max(MAX_USER_ID, key('user_field_invalid'));

/** A user id in a path, e.g. /api/user/:id. */
export const userIdParamSchema = z.coerce
  .number({ invalid_type_error: key('user_not_found') })
  .int(key('user_not_found'))
  .positive(key('user_not_found'))
  .max(MAX_USER_ID, key('user_not_found'));

/**
 * PUT /api/user/self (SPEC: display_name, original_password, password, email). A new password or a
 * new address needs the current password when the account has one.
 */
export const updateSelfRequestSchema = z.object({
  display_name: blankAsAbsent(displayName('display_name_invalid')),
  email: blankAsAbsent(emailField('email_invalid')),
  password: blankAsAbsent(passwordField('password_too_short')),
  original_password: blankAsAbsent(
    z.string({ invalid_type_error: key('original_password_wrong') }).max(128, key('original_password_wrong')),
  ),
});
export type UpdateSelfRequest = z.output<typeof updateSelfRequestSchema>;

/** Any currency but USD is RUB (SPEC: "any value other than RUB or USD reverts to RUB"). */
const defaultCurrency = z.unknown().transform((value): DefaultCurrency => (value === 'USD' ? 'USD' : 'RUB'));

/** PUT /api/user/setting: a partial change of the user's settings. */
export const updateSettingRequestSchema = z.object({
  default_currency: defaultCurrency.optional(),
  language: z.enum(INTERFACE_LANGUAGES, { errorMap: () => ({ message: key('setting_invalid') }) }).optional(),
  /** Where notifications go; empty clears it (the account's address is used). */
  notification_email: z
    .union([z.literal(''), emailField('setting_invalid')], {
      errorMap: (issue, ctx) => ({
        message: issue.code === 'invalid_union' ? key('email_invalid') : ctx.defaultError,
      }),
    })
    .optional(),
});
export type UpdateSettingRequest = z.output<typeof updateSettingRequestSchema>;

/** The settings document as stored and as /api/user/self's `setting` carries it (JSON text). */
export const userSettingsSchema = z.object({
  default_currency: z.enum(DEFAULT_CURRENCIES).catch('RUB').default('RUB'),
  language: z.enum(INTERFACE_LANGUAGES).catch('ru').default('ru'),
  notification_email: z.string().catch('').default(''),
});
export type UserSettings = z.output<typeof userSettingsSchema>;

/** GET /api/reset_password?email= */
export const resetPasswordQuerySchema = z.object({ email: emailField('email_required') });

/** POST /api/user/reset: the mailed code (`token`) and the new password. */
export const passwordResetRequestSchema = z.object({
  email: emailField('email_required'),
  token: requiredText('verification_code_required')
    .trim()
    .min(1, key('verification_code_required'))
    .max(16, key('verification_code_invalid')),
  password: passwordField('reset_fields_required'),
});
export type PasswordResetRequest = z.output<typeof passwordResetRequestSchema>;

/** POST /api/user/ (admin): a new ordinary user. */
export const createUserRequestSchema = z.object({
  username: username('register_fields_required'),
  password: passwordField(),
  display_name: blankAsAbsent(displayName('display_name_invalid')),
});
export type CreateUserRequest = z.output<typeof createUserRequestSchema>;

/** PUT /api/user/ (admin): a partial update of user `id`; `role` only by root; `quota` sets the balance. */
export const updateUserRequestSchema = z.object({
  id: userId,
  username: blankAsAbsent(username('username_invalid')),
  display_name: blankAsAbsent(displayName('display_name_invalid')),
  group: blankAsAbsent(
    z
      .string({ invalid_type_error: key('user_field_invalid') })
      .trim()
      .max(64, key('user_field_invalid'))
      .regex(/^[a-zA-Z0-9_-]+$/, key('user_field_invalid')),
  ),
  password: blankAsAbsent(passwordField('password_too_short')),
  role: z
    .union([z.literal(Role.User), z.literal(Role.Admin), z.literal(Role.Root)], {
      errorMap: () => ({ message: key('user_field_invalid') }),
    })
    .optional(),
  quota: z
    .number({ invalid_type_error: key('user_field_invalid') })
    .int(key('user_field_invalid'))
    .min(0, key('user_field_invalid'))
    .max(Number.MAX_SAFE_INTEGER, key('user_field_invalid'))
    .optional(),
  /** Why the balance is set (kept in the ledger and the audit trail). */
  quota_reason: z
    .string({ invalid_type_error: key('user_field_invalid') })
    .trim()
    .max(500, key('user_field_invalid'))
    .optional(),
});
export type UpdateUserRequest = z.output<typeof updateUserRequestSchema>;

export const USER_ACTIONS = ['disable', 'enable', 'promote', 'demote', 'delete'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/** POST /api/user/manage */
export const manageUserRequestSchema = z.object({
  id: userId,
  action: z.enum(USER_ACTIONS, { errorMap: () => ({ message: key('user_action_invalid') }) }),
});
export type ManageUserRequest = z.output<typeof manageUserRequestSchema>;

/** GET /api/user/search?keyword= (part of the username, display name or address, or an id). */
/** Filters of the admin user list and search (new-api has none; operators asked for them). */
export const userFilterQuerySchema = z.object({
  role: z.coerce
    .number({ invalid_type_error: key('user_field_invalid') })
    .pipe(
      z.union([z.literal(Role.User), z.literal(Role.Admin), z.literal(Role.Root)], {
        errorMap: () => ({ message: key('user_field_invalid') }),
      }),
    )
    .optional(),
  status: z.coerce
    .number({ invalid_type_error: key('user_field_invalid') })
    .pipe(
      z.union([z.literal(UserStatus.Enabled), z.literal(UserStatus.Disabled)], {
        errorMap: () => ({ message: key('user_field_invalid') }),
      }),
    )
    .optional(),
  group: z
    .string({ invalid_type_error: key('user_field_invalid') })
    .trim()
    .max(64, key('user_field_invalid'))
    .regex(/^[a-zA-Z0-9_-]*$/, key('user_field_invalid'))
    .optional()
    .transform((group) => group || undefined),
});
export type UserFilter = z.output<typeof userFilterQuerySchema>;

export const userSearchQuerySchema = z.object({
  keyword: z
    .string({ invalid_type_error: key('user_field_invalid') })
    .max(64, key('user_field_invalid'))
    .regex(NO_CONTROL_CHARACTERS, key('user_field_invalid'))
    .default(''),
});
