import type { AccessMessageKey } from '../access-messages';

export const en: Record<AccessMessageKey, string> = {
  authentication_required: 'Authentication required',
  insufficient_permissions: 'Insufficient permissions',
  user_header_mismatch: 'New-Api-User does not match the signed-in user',
};
