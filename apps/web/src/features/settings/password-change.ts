import { passwordLengthError, type AuthMessageKey } from '../auth/validation';

export interface PasswordChange {
  originalPassword: string;
  password: string;
  confirmPassword: string;
}

/** SPEC §5 for a new password: the current one, 8 to 22 characters, typed twice the same. */
export function passwordChangeProblem(change: PasswordChange): AuthMessageKey | 'original_required' | null {
  if (!change.originalPassword) return 'original_required';
  const length = passwordLengthError(change.password);
  if (length) return length;
  if (change.password !== change.confirmPassword) return 'passwords_mismatch';
  return null;
}
