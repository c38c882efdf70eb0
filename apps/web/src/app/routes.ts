/** Every path the app links or routes to (SPEC §2), in one place. */
export const ROUTES = {
  home: '/',
  login: '/login',
  dashboard: '/dashboard',
  dashboardPayment: '/dashboard/payment',
  privacy: '/privacy',
  terms: '/terms',
  offer: '/offer',
  topup: '/topup',
  oauthReturn: (provider: OAuthProvider) => `/oauth/${provider}`,
} as const;

export const OAUTH_PROVIDERS = ['github', 'google', 'discord'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** The login screen's tabs, kept in `?tab=` (SPEC §2); register is the default. */
export const LOGIN_TABS = ['register', 'login', 'reset'] as const;
export type LoginTab = (typeof LOGIN_TABS)[number];
export const DEFAULT_LOGIN_TAB: LoginTab = 'register';

export function loginPath(tab: LoginTab): string {
  return `${ROUTES.login}?tab=${tab}`;
}
