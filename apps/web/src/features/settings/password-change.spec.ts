import { passwordChangeProblem } from './password-change';

describe('password change', () => {
  const ok = { originalPassword: 'old-secret', password: 'new-secret', confirmPassword: 'new-secret' };

  it('accepts the current password and a new one typed twice', () => {
    expect(passwordChangeProblem(ok)).toBeNull();
  });

  it('needs the current password', () => {
    expect(passwordChangeProblem({ ...ok, originalPassword: '' })).toBe('original_required');
  });

  it('keeps the new one between 8 and 22 characters', () => {
    expect(passwordChangeProblem({ ...ok, password: 'short', confirmPassword: 'short' })).toBe(
      'password_too_short',
    );
    const long = 'x'.repeat(23);
    expect(passwordChangeProblem({ ...ok, password: long, confirmPassword: long })).toBe('password_too_long');
  });

  it('needs both copies to match', () => {
    expect(passwordChangeProblem({ ...ok, confirmPassword: 'new-secreT' })).toBe('passwords_mismatch');
  });
});
