import { lazyNamed } from '../lib/lazy-named';

/**
 * Every routed page as its own chunk (Vite splits at each dynamic import), so the first paint of
 * landing or login loads only the shell and that page; charts, docs, legal texts and the dashboard
 * sections come when they are opened. Layouts, guards and the not-found page (a guard answers
 * with it) stay in the shell: they paint at once.
 */
export const LandingPage = lazyNamed(() => import('../pages/landing-page'), 'LandingPage');
export const LoginPage = lazyNamed(() => import('../pages/login-page'), 'LoginPage');
export const OAuthReturnPage = lazyNamed(() => import('../pages/oauth-return-page'), 'OAuthReturnPage');
export const TopupRedirect = lazyNamed(() => import('../pages/topup-redirect'), 'TopupRedirect');

export const PriceList = lazyNamed(() => import('../features/pricing/components/price-list'), 'PriceList');
export const ModelCompare = lazyNamed(
  () => import('../features/pricing/components/model-compare'),
  'ModelCompare',
);
export const ModelDetails = lazyNamed(
  () => import('../features/pricing/components/model-details'),
  'ModelDetails',
);
export const DocsView = lazyNamed(() => import('../features/docs/components/docs-view'), 'DocsView');
export const ChangelogPage = lazyNamed(
  () => import('../features/site/components/changelog-page'),
  'ChangelogPage',
);
export const StatusPage = lazyNamed(
  () => import('../features/status-page/components/status-page'),
  'StatusPage',
);
export const AboutPage = lazyNamed(() => import('../features/site/components/about-page'), 'AboutPage');
export const LegalPage = lazyNamed(() => import('../features/site/components/legal-page'), 'LegalPage');

export const DashboardHomePage = lazyNamed(
  () => import('../pages/dashboard/dashboard-home-page'),
  'DashboardHomePage',
);
export const TokensPage = lazyNamed(() => import('../pages/dashboard/tokens-page'), 'TokensPage');
export const ActivityPage = lazyNamed(() => import('../pages/dashboard/activity-page'), 'ActivityPage');
export const PaymentPage = lazyNamed(() => import('../pages/dashboard/payment-page'), 'PaymentPage');
export const SettingsPage = lazyNamed(() => import('../pages/dashboard/settings-page'), 'SettingsPage');
export const ChatPage = lazyNamed(() => import('../pages/dashboard/chat-page'), 'ChatPage');
export const AdminAreaPage = lazyNamed(() => import('../pages/dashboard/admin/admin-pages'), 'AdminAreaPage');
export const AdminUsersPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminUsersPage',
);
export const AdminChannelsPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminChannelsPage',
);
export const AdminSettingsPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminSettingsPage',
);
export const AdminPricesPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminPricesPage',
);
export const AdminPromoPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminPromoPage',
);
export const AdminLogsPage = lazyNamed(() => import('../pages/dashboard/admin/admin-pages'), 'AdminLogsPage');
export const AdminAuditPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminAuditPage',
);
export const AdminUserPage = lazyNamed(() => import('../pages/dashboard/admin/admin-pages'), 'AdminUserPage');
export const AdminPaymentsPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminPaymentsPage',
);
export const AdminOverviewPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminOverviewPage',
);
export const AdminContentPage = lazyNamed(
  () => import('../pages/dashboard/admin/admin-pages'),
  'AdminContentPage',
);
