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
  // profile and settings
  'display_name_invalid',
  'original_password_required',
  'original_password_wrong',
  'setting_invalid',
  'profile_updated',
  'password_updated',
  'settings_saved',
  'account_deleted',
  'root_cannot_be_deleted',
  // password reset
  'reset_fields_required',
  'reset_code_sent',
  'reset_rate_limited',
  'reset_mail_subject',
  'reset_mail_body',
  // user admin
  'user_field_invalid',
  'user_action_invalid',
  'user_not_found',
  'role_change_root_only',
  'cannot_manage_peer',
  'user_already_admin',
  'user_already_user',
  'quota_change_failed',
  'user_created',
  'user_updated',
  'user_deleted',
  // OAuth
  'oauth_provider_unknown',
  'oauth_not_configured',
  'oauth_state_invalid',
  'oauth_consent_required',
  'oauth_failed',
  'oauth_already_linked',
  'oauth_not_linked',
  'oauth_last_sign_in_method',
  'oauth_unlinked',
  'oauth_rate_limited',
  // access tokens
  'access_token_rate_limited',
] as const;

export type AuthMessageKey = (typeof AUTH_MESSAGE_KEYS)[number];

export const isAuthMessageKey = (value: string): value is AuthMessageKey =>
  (AUTH_MESSAGE_KEYS as readonly string[]).includes(value);
