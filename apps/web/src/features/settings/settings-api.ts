import type { UpdateSettingRequest } from '@tollgate/contracts';
import { api } from '../../api/client';
import type { OAuthProvider } from '@tollgate/contracts';

export interface UpdateSelfPayload {
  display_name?: string;
  email?: string;
  original_password?: string;
  password?: string;
}

/** `PUT /api/user/self`: display name, e-mail, or a new password with the current one. */
export async function updateSelf(payload: UpdateSelfPayload): Promise<void> {
  await api.send('PUT', '/user/self', { body: payload });
}

/** `PUT /api/user/setting`: the application settings kept with the account. */
export async function updateSetting(
  payload: Pick<UpdateSettingRequest, 'default_currency' | 'language'>,
): Promise<void> {
  await api.send('PUT', '/user/setting', { body: payload });
}

/** `GET /api/user/aff`: the caller's invite code (made on first call). */
export async function fetchAffiliateCode(): Promise<string> {
  return api.data<string>('GET', '/user/aff');
}

/** `DELETE /api/user/oauth/:provider`: unlinks the provider; answers auth's confirmation text. */
export async function unlinkOAuth(provider: OAuthProvider): Promise<string> {
  const envelope = await api.send<null>('DELETE', `/user/oauth/${provider}`);
  return envelope.message;
}
