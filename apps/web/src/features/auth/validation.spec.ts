import {
  canSubmitLogin,
  canSubmitRegister,
  isValidEmail,
  validateEmailForCode,
  validateLogin,
  validateOAuthConsent,
  validateRegister,
  validateReset,
  type RegisterForm,
  type ResetForm,
} from './validation';

const register = (over: Partial<RegisterForm> = {}): RegisterForm => ({
  username: 'anna',
  email: 'anna@example.ru',
  password: 'secret-123',
  confirmPassword: 'secret-123',
  verification_code: '123456',
  agreeToTerms: true,
  agreeToDataProcessing: true,
  ...over,
});

const reset = (over: Partial<ResetForm> = {}): ResetForm => ({
  email: 'anna@example.ru',
  verificationCode: '123456',
  newPassword: 'new-secret-1',
  confirmNewPassword: 'new-secret-1',
  ...over,
});

describe('e-mail format', () => {
  it.each(['anna@example.ru', 'a.b-c_d@mail.example.com', 'x@y.info'])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });
  it.each([
    'anna',
    'anna@',
    '@example.ru',
    'anna@example',
    'anna@example.r',
    'anna@example.museum',
    'a b@c.ru',
  ])('refuses %s', (email) => expect(isValidEmail(email)).toBe(false));
});

describe('login', () => {
  it('needs both username and password', () => {
    expect(validateLogin({ username: '', password: 'x' })).toBe('login_required');
    expect(validateLogin({ username: 'anna', password: '' })).toBe('login_required');
    expect(validateLogin({ username: '  ', password: 'x' })).toBe('login_required');
    expect(validateLogin({ username: 'anna', password: 'x' })).toBeNull();
  });

  it('enables the button only when both fields are filled', () => {
    expect(canSubmitLogin({ username: 'anna', password: '' })).toBe(false);
    expect(canSubmitLogin({ username: 'anna', password: 'p' })).toBe(true);
  });
});

describe('registration', () => {
  it('accepts a complete form', () => expect(validateRegister(register())).toBeNull());

  it.each(['username', 'email', 'password', 'confirmPassword'] as const)('needs %s', (field) => {
    expect(validateRegister(register({ [field]: '' }))).toBe('register_required');
  });

  it('needs a well-formed e-mail', () => {
    expect(validateRegister(register({ email: 'anna@example' }))).toBe('email_invalid');
  });

  it('needs matching passwords', () => {
    expect(validateRegister(register({ confirmPassword: 'other-123' }))).toBe('passwords_mismatch');
  });

  it('needs the offer, rules and policy accepted', () => {
    expect(validateRegister(register({ agreeToTerms: false }))).toBe('terms_required');
  });

  it('needs consent to personal data processing', () => {
    expect(validateRegister(register({ agreeToDataProcessing: false }))).toBe('data_processing_required');
  });

  it('needs the verification code', () => {
    expect(validateRegister(register({ verification_code: ' ' }))).toBe('code_required');
  });

  it('needs at least 8 characters', () => {
    expect(validateRegister(register({ password: 'short12', confirmPassword: 'short12' }))).toBe(
      'password_too_short',
    );
    expect(validateRegister(register({ password: '12345678', confirmPassword: '12345678' }))).toBeNull();
  });

  it('refuses more than 22 characters, and the button stays disabled', () => {
    const long = 'x'.repeat(23);
    expect(validateRegister(register({ password: long, confirmPassword: long }))).toBe('password_too_long');
    expect(canSubmitRegister(register({ password: long }))).toBe(false);
    expect(canSubmitRegister(register({ password: 'x'.repeat(22) }))).toBe(true);
  });
});

describe('password reset', () => {
  it('accepts a complete form', () => expect(validateReset(reset())).toBeNull());
  it('needs the e-mail', () => expect(validateReset(reset({ email: '' }))).toBe('email_required'));
  it('needs a well-formed e-mail', () => expect(validateReset(reset({ email: 'x@' }))).toBe('email_invalid'));
  it('needs the code', () => expect(validateReset(reset({ verificationCode: '' }))).toBe('code_required'));
  it('needs matching passwords', () => {
    expect(validateReset(reset({ confirmNewPassword: 'different-1' }))).toBe('passwords_mismatch');
  });
  it('needs 8 to 22 characters', () => {
    expect(validateReset(reset({ newPassword: 'short', confirmNewPassword: 'short' }))).toBe(
      'password_too_short',
    );
    const long = 'y'.repeat(23);
    expect(validateReset(reset({ newPassword: long, confirmNewPassword: long }))).toBe('password_too_long');
  });
});

describe('code sending', () => {
  it('needs an e-mail that looks like one', () => {
    expect(validateEmailForCode('')).toBe('email_required');
    expect(validateEmailForCode('anna')).toBe('email_invalid');
    expect(validateEmailForCode('anna@example.ru')).toBeNull();
  });
});

describe('OAuth registration', () => {
  it('needs both consents', () => {
    expect(validateOAuthConsent(true, false)).toBe('oauth_consent_required');
    expect(validateOAuthConsent(false, true)).toBe('oauth_consent_required');
    expect(validateOAuthConsent(true, true)).toBeNull();
  });
});
