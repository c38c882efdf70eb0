import type { OAuthProvider } from '@tollgate/contracts';

/** Every path the app links or routes to (SPEC §2), in one place. */
export const ROUTES = {
  home: '/',
  login: '/login',
  price: '/price',
  docs: '/docs',
  changelog: '/changelog',
  status: '/status',
  about: '/about',
  compare: '/compare',
  privacy: '/privacy',
  terms: '/terms',
  offer: '/offer',
  topup: '/topup',
  dashboard: '/dashboard',
  dashboardTokens: '/dashboard/tokens',
  dashboardActivity: '/dashboard/activity',
  dashboardPayment: '/dashboard/payment',
  dashboardSettings: '/dashboard/settings',
  dashboardPrice: '/dashboard/price',
  dashboardDocs: '/dashboard/docs',
  dashboardChangelog: '/dashboard/changelog',
  dashboardChat: '/dashboard/chat',
  dashboardAdmin: '/dashboard/admin',
  adminOverview: '/dashboard/admin/overview',
  adminUsers: '/dashboard/admin/users',
  adminChannels: '/dashboard/admin/channels',
  adminPrices: '/dashboard/admin/prices',
  adminPromos: '/dashboard/admin/promo',
  adminLogs: '/dashboard/admin/logs',
  adminContent: '/dashboard/admin/content',
  adminAudit: '/dashboard/admin/audit',
  adminPayments: '/dashboard/admin/payments',
  adminSettings: '/dashboard/admin/settings',
  oauthReturn: (provider: OAuthProvider) => `/oauth/${provider}`,
} as const;

/** One user's page in the admin area. */
export const adminUserPath = (id: number) => `${ROUTES.adminUsers}/${id}`;

/** One chat's conversation (SPEC §2: /dashboard/chat/{id}). */
export const chatPath = (id: number) => `${ROUTES.dashboardChat}/${id}`;

/** SPEC §2: /docs opens the first section, the introduction. */
export const DEFAULT_DOCS_SECTION_PATH = '/docs/getting-started';

/** The login screen's tabs, kept in `?tab=` (SPEC §2); register is the default. */
export const LOGIN_TABS = ['register', 'login', 'reset'] as const;
export type LoginTab = (typeof LOGIN_TABS)[number];
export const DEFAULT_LOGIN_TAB: LoginTab = 'register';

export function loginPath(tab: LoginTab): string {
  return `${ROUTES.login}?tab=${tab}`;
}

/** The settings screen's tabs, kept in `?tab=`; account is the default. */
export const SETTINGS_TABS = ['account', 'application'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/**
 * Pages shown both on the public site and inside the dashboard (price, docs, model, compare,
 * changelog, legal texts) link within the frame they are shown in: `base` is '' or '/dashboard'.
 */
export type SiteBase = '' | typeof ROUTES.dashboard;

export const sitePaths = (base: SiteBase) => ({
  price: `${base}/price`,
  compare: `${base}/compare`,
  changelog: `${base}/changelog`,
  model: (name: string) => `${base}/model/${encodeURIComponent(name)}`,
  docs: (sectionId: string) => `${base}/docs/${sectionId}`,
  privacy: `${base}/privacy`,
  terms: `${base}/terms`,
  offer: `${base}/offer`,
});
