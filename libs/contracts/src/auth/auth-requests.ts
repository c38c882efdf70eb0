import { z } from 'zod';
import type { AuthMessageKey } from './auth-message-keys';

/** SPEC §5: word characters, dots and hyphens before the @, domain labels, a 2–4 character top level. */
export const EMAIL_PATTERN = /^[\w.-]+@([\w-]+\.)+[\w-]{2,4}$/;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 22;
export const USERNAME_MAX_LENGTH = 20;
export const EMAIL_MAX_LENGTH = 254;
/** Letters and digits of any script, "_", "-", "."; nothing that renders as markup or controls a terminal. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}_.-]+$/u;
export const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cf}]*$/u;

const key = (message: AuthMessageKey) => message;

/** A required text field: absent, not a string, or blank all answer `missing`. */
export const requiredText = (missing: AuthMessageKey) =>
  z.string({ required_error: key(missing), invalid_type_error: key(missing) });

export const emailField = (missing: AuthMessageKey) =>
  requiredText(missing)
    .trim()
    .min(1, key(missing))
    .max(EMAIL_MAX_LENGTH, key('value_too_long'))
    .regex(EMAIL_PATTERN, key('email_invalid'))
    .transform((email) => email.toLowerCase());

/** A new password: 8–22 characters, no control characters; `missing` when absent or empty. */
export const passwordField = (missing: AuthMessageKey = 'register_fields_required') =>
  requiredText(missing)
    .min(1, key(missing))
    .min(PASSWORD_MIN_LENGTH, key('password_too_short'))
    .max(PASSWORD_MAX_LENGTH, key('password_too_long'))
    .regex(NO_CONTROL_CHARACTERS, key('password_invalid_chars'));

const consent = (missing: AuthMessageKey) => z.literal(true, { errorMap: () => ({ message: key(missing) }) });

/** POST /api/user/register. The two consents are recorded with their time. */
export const registerRequestSchema = z.object({
  username: requiredText('register_fields_required')
    .trim()
    .min(1, key('register_fields_required'))
    .max(USERNAME_MAX_LENGTH, key('username_invalid'))
    .regex(USERNAME_PATTERN, key('username_invalid')),
  email: emailField('register_fields_required'),
  password: passwordField(),
  /** Required when the platform verifies e-mail addresses (TOLLGATE_EMAIL_VERIFICATION). */
  verification_code: z
    .string({ invalid_type_error: key('verification_code_invalid') })
    .trim()
    .max(16, key('verification_code_invalid'))
    .optional(),
  aff_code: z
    .string({ invalid_type_error: key('value_too_long') })
    .trim()
    .max(32, key('value_too_long'))
    .optional(),
  agree_to_terms: consent('terms_required'),
  agree_to_data_processing: consent('data_processing_required'),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** POST /api/user/login: `username` may also be the account's e-mail address. */
export const loginRequestSchema = z.object({
  username: requiredText('login_fields_required')
    .trim()
    .min(1, key('login_fields_required'))
    .max(EMAIL_MAX_LENGTH, key('value_too_long'))
    // No account has such a name, and PostgreSQL text cannot even hold a NUL to compare with.
    .regex(NO_CONTROL_CHARACTERS, key('invalid_credentials')),
  password: requiredText('login_fields_required')
    .min(1, key('login_fields_required'))
    .max(128, key('value_too_long')),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** GET /api/verification?email= */
export const verificationQuerySchema = z.object({ email: emailField('email_required') });
export type VerificationQuery = z.infer<typeof verificationQuerySchema>;
