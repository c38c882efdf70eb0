/**
 * Every message the accounts calls answer with, by key. Request schemas carry these keys as their
 * zod messages; the auth service renders them in the caller's language (ru by default, en).
 * Earlier keys win when a request has several problems, in the order SPEC §5 checks a form.
 */
export const AUTH_MESSAGE_KEYS = [
  'login_fields_required',
  'register_fields_required',
  'email_required',
  'value_too_long',
  'username_invalid',
  'email_invalid',
  'terms_required',
  'data_processing_required',
  'verification_code_required',
  'verification_code_invalid',
  'password_too_short',
  'password_too_long',
  'password_invalid_chars',
  'username_taken',
  'email_taken',
  'verification_cooldown',
  'verification_rate_limited',
  'mail_failed',
  'invalid_credentials',
  'user_disabled',
  'login_rate_limited',
  'verification_sent',
  'login_success',
  'register_success',
  'logout_success',
  'verification_mail_subject',
  'verification_mail_body',
  'token_name_required',
  'token_name_too_long',
  'token_ip_invalid',
  'token_quota_negative',
  'token_field_invalid',
  'token_not_found',
  'token_created',
  'token_updated',
  'token_deleted',
] as const;

export type AuthMessageKey = (typeof AUTH_MESSAGE_KEYS)[number];

export const isAuthMessageKey = (value: string): value is AuthMessageKey =>
  (AUTH_MESSAGE_KEYS as readonly string[]).includes(value);
