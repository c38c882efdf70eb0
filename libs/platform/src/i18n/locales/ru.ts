import type { AccessMessageKey } from '../access-messages';

export const ru: Record<AccessMessageKey, string> = {
  authentication_required: 'Необходимо войти в аккаунт',
  insufficient_permissions: 'Недостаточно прав',
  user_header_mismatch: 'New-Api-User не совпадает с пользователем, который вошёл в аккаунт',
};
