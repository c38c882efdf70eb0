import { api } from '../../api/client';
import type { SelfUser } from '../session/session-api';
import type { OAuthProvider } from '@tollgate/contracts';

export interface RegisterPayload {
  username: string;
  password: string;
  email: string;
  verification_code: string;
  /** Consents the server records with their time; the form only submits when both are given. */
  agree_to_terms: boolean;
  agree_to_data_processing: boolean;
  /** The inviter's code from an invite link. */
  aff_code?: string;
}

/** SPEC §5: sign-in succeeds only when the answer has success and data. */
export function login(username: string, password: string): Promise<SelfUser> {
  return api.data<SelfUser>('POST', '/user/login', { body: { username, password } });
}

export function register(payload: RegisterPayload): Promise<SelfUser> {
  return api.data<SelfUser>('POST', '/user/register', { body: payload });
}

export async function sendVerificationCode(email: string): Promise<void> {
  await api.send('GET', '/verification', { query: { email } });
}

export async function sendPasswordResetCode(email: string): Promise<void> {
  await api.send('GET', '/reset_password', { query: { email } });
}

export async function resetPassword(email: string, token: string, password: string): Promise<void> {
  await api.send('POST', '/user/reset', { body: { email, token, password } });
}

export function fetchOAuthState(): Promise<string> {
  return api.data<string>('GET', '/oauth/state');
}

export function exchangeOAuthCode(provider: OAuthProvider, code: string, state: string): Promise<SelfUser> {
  return api.data<SelfUser>('GET', `/oauth/${provider}`, { query: { code, state } });
}
