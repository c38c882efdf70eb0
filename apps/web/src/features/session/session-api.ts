import { api } from '../../api/client';

/** SPEC §3 User: the fields the web app reads. */
export interface SelfUser {
  id: number;
  username: string;
  display_name: string;
  email: string;
}

export function fetchSelf(): Promise<SelfUser> {
  return api.data<SelfUser>('GET', '/user/self');
}
