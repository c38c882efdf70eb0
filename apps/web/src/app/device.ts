export type Device = 'mobile' | 'desktop';

/** Phones only: tablets (iPad, Android without "Mobile") get the desktop set, as SPEC §2 says. */
const PHONE_USER_AGENT =
  /iPhone|iPod|Android.+Mobile|Windows Phone|IEMobile|BlackBerry|BB10|Opera Mini|webOS/i;

export function deviceForUserAgent(userAgent: string): Device {
  return PHONE_USER_AGENT.test(userAgent) ? 'mobile' : 'desktop';
}
