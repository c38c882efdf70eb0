/** SPEC §5 rules for the login screen; each returns the `auth` namespace key of its message, or null. */
export type AuthMessageKey =
  | 'login_required'
  | 'register_required'
  | 'email_required'
  | 'email_invalid'
  | 'passwords_mismatch'
  | 'terms_required'
  | 'data_processing_required'
  | 'code_required'
  | 'password_too_short'
  | 'password_too_long'
  | 'oauth_consent_required';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 22;

/** Word characters, dots and hyphens before the @, domain labels, a 2–4 character top-level part. */
const EMAIL_PATTERN = /^[\w.-]+@(?:[\w-]+\.)+[A-Za-z]{2,4}$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

export interface LoginForm {
  username: string;
  password: string;
}

export interface RegisterForm {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
  verification_code: string;
  agreeToTerms: boolean;
  agreeToDataProcessing: boolean;
}

export interface ResetForm {
  email: string;
  verificationCode: string;
  newPassword: string;
  confirmNewPassword: string;
}

const filled = (value: string) => value.trim().length > 0;

/** The login button is enabled only when both fields are non-empty. */
export function canSubmitLogin(form: LoginForm): boolean {
  return filled(form.username) && form.password.length > 0;
}

export function validateLogin(form: LoginForm): AuthMessageKey | null {
  return canSubmitLogin(form) ? null : 'login_required';
}

export function passwordLengthError(password: string): AuthMessageKey | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'password_too_short';
  if (password.length > PASSWORD_MAX_LENGTH) return 'password_too_long';
  return null;
}

/** For the send-code buttons: an e-mail is needed and must look like one. */
export function validateEmailForCode(email: string): AuthMessageKey | null {
  if (!filled(email)) return 'email_required';
  return isValidEmail(email) ? null : 'email_invalid';
}

/** The register button also stays disabled while the password is longer than 22 characters. */
export function canSubmitRegister(form: RegisterForm): boolean {
  return form.password.length <= PASSWORD_MAX_LENGTH;
}

export function validateRegister(form: RegisterForm): AuthMessageKey | null {
  if (![form.username, form.email, form.password, form.confirmPassword].every(filled))
    return 'register_required';
  if (!isValidEmail(form.email)) return 'email_invalid';
  if (form.password !== form.confirmPassword) return 'passwords_mismatch';
  if (!form.agreeToTerms) return 'terms_required';
  if (!form.agreeToDataProcessing) return 'data_processing_required';
  if (!filled(form.verification_code)) return 'code_required';
  return passwordLengthError(form.password);
}

export function validateReset(form: ResetForm): AuthMessageKey | null {
  const emailError = validateEmailForCode(form.email);
  if (emailError) return emailError;
  if (!filled(form.verificationCode)) return 'code_required';
  if (form.newPassword !== form.confirmNewPassword) return 'passwords_mismatch';
  return passwordLengthError(form.newPassword);
}

export function validateOAuthConsent(
  agreeToTerms: boolean,
  agreeToDataProcessing: boolean,
): AuthMessageKey | null {
  return agreeToTerms && agreeToDataProcessing ? null : 'oauth_consent_required';
}
