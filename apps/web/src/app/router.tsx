import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';
import { Navigate } from 'react-router-dom';
import { DashboardLayout } from '../features/dashboard/layouts/dashboard-layout';
import { MobileDashboardLayout } from '../features/dashboard/layouts/mobile-dashboard-layout';
import { BareLayout } from '../features/shell/layouts/bare-layout';
import { DesktopLayout } from '../features/shell/layouts/desktop-layout';
import { MobileLayout } from '../features/shell/layouts/mobile-layout';
import { NotFoundPage } from '../pages/not-found-page';
import { SitePage } from '../ui/site-page';
import { AppShell } from './app-shell';
import type { Device } from './device';
import { RedirectSignedIn, RequireSignIn } from './guards';
import {
  AboutPage,
  ActivityPage,
  AdminAreaPage,
  AdminChannelsPage,
  AdminPricesPage,
  AdminPromoPage,
  AdminLogsPage,
  AdminAuditPage,
  AdminPaymentsPage,
  AdminUserPage,
  AdminContentPage,
  AdminOverviewPage,
  AdminSettingsPage,
  AdminUsersPage,
  ChatPage,
  ChangelogPage,
  DashboardHomePage,
  DocsView,
  LandingPage,
  LegalPage,
  LoginPage,
  ModelCompare,
  ModelDetails,
  OAuthReturnPage,
  PaymentPage,
  PriceList,
  SettingsPage,
  StatusPage,
  TokensPage,
  TopupRedirect,
} from './pages';
import { OAUTH_PROVIDERS } from '@tollgate/contracts';
import { DEFAULT_DOCS_SECTION_PATH, ROUTES } from '../lib/routes';

const loginRoute = (
  <RedirectSignedIn>
    <LoginPage />
  </RedirectSignedIn>
);

/** Routes both sets share (SPEC §2 "Both sets"). */
const sharedRoutes: RouteObject[] = [
  ...OAUTH_PROVIDERS.map((provider) => ({
    path: ROUTES.oauthReturn(provider),
    element: <OAuthReturnPage provider={provider} />,
  })),
  {
    path: ROUTES.topup,
    element: (
      <RequireSignIn>
        <TopupRedirect />
      </RequireSignIn>
    ),
  },
];

/** The pages the public site and the dashboard both show; `frame` wraps them for the public site. */
function contentPages(frame: (page: ReactNode) => ReactNode): RouteObject[] {
  return [
    { path: 'price', element: frame(<PriceList />) },
    { path: 'compare', element: frame(<ModelCompare />) },
    { path: 'model/:modelName', element: frame(<ModelDetails />) },
    { path: 'docs/:sectionId', element: frame(<DocsView />) },
    { path: 'changelog', element: frame(<ChangelogPage />) },
    { path: 'privacy', element: frame(<LegalPage document="privacy" />) },
    { path: 'terms', element: frame(<LegalPage document="terms" />) },
    { path: 'offer', element: frame(<LegalPage document="offer" />) },
  ];
}

const inSite = (page: ReactNode) => <SitePage>{page}</SitePage>;

/** SPEC §2: the desktop dashboard's admin area (admins and root; others get the not-found page). */
const adminRoute: RouteObject = {
  path: 'admin',
  element: <AdminAreaPage />,
  children: [
    { index: true, element: <Navigate to={ROUTES.adminOverview} replace /> },
    { path: 'overview', element: <AdminOverviewPage /> },
    { path: 'users', element: <AdminUsersPage /> },
    { path: 'users/:id', element: <AdminUserPage /> },
    { path: 'channels', element: <AdminChannelsPage /> },
    { path: 'prices', element: <AdminPricesPage /> },
    { path: 'promo', element: <AdminPromoPage /> },
    { path: 'logs', element: <AdminLogsPage /> },
    { path: 'content', element: <AdminContentPage /> },
    { path: 'audit', element: <AdminAuditPage /> },
    { path: 'payments', element: <AdminPaymentsPage /> },
    { path: 'settings', element: <AdminSettingsPage /> },
    { path: '*', element: <NotFoundPage /> },
  ],
};
const asIs = (page: ReactNode) => page;

/**
 * SPEC §2 dashboard children. The desktop set lists terms, privacy and offer inside the dashboard,
 * the mobile set does not; the admin area is on the desktop set only.
 */
function dashboardRoute(device: Device): RouteObject {
  const legal = new Set(['privacy', 'terms', 'offer']);
  const shared = contentPages(asIs).filter((route) => device === 'desktop' || !legal.has(route.path ?? ''));
  return {
    path: ROUTES.dashboard,
    element: (
      <RequireSignIn>{device === 'mobile' ? <MobileDashboardLayout /> : <DashboardLayout />}</RequireSignIn>
    ),
    children: [
      { index: true, element: <DashboardHomePage /> },
      { path: 'tokens', element: <TokensPage /> },
      { path: 'chat', element: <ChatPage /> },
      { path: 'chat/:id', element: <ChatPage /> },
      ...(device === 'desktop' ? [adminRoute] : []),
      { path: 'activity', element: <ActivityPage /> },
      { path: 'payment', element: <PaymentPage /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'docs', element: <DocsView /> },
      ...shared,
      { path: '*', element: <NotFoundPage /> },
    ],
  };
}

/** SPEC §2 route sets: the user-agent picks one at start-up. */
export function buildRoutes(device: Device): RouteObject[] {
  const publicChildren: RouteObject[] = [
    { index: true, element: <LandingPage /> },
    ...contentPages(inSite),
    { path: 'about', element: inSite(<AboutPage />) },
    { path: ROUTES.status.slice(1), element: inSite(<StatusPage />) },
    // SPEC §2 lists a bare /docs on the mobile set only; both sets send it to the first section.
    { path: 'docs', element: <Navigate to={DEFAULT_DOCS_SECTION_PATH} replace /> },
  ];
  const site: RouteObject =
    device === 'mobile'
      ? {
          path: ROUTES.home,
          element: <MobileLayout />,
          children: [
            ...publicChildren,
            { path: ROUTES.login.slice(1), element: loginRoute },
            { path: '*', element: <NotFoundPage /> },
          ],
        }
      : {
          path: ROUTES.home,
          element: <DesktopLayout />,
          children: [...publicChildren, { path: '*', element: <NotFoundPage /> }],
        };
  const desktopOnly: RouteObject[] =
    device === 'desktop'
      ? [{ element: <BareLayout />, children: [{ path: ROUTES.login, element: loginRoute }] }]
      : [];
  return [
    { element: <AppShell />, children: [...desktopOnly, ...sharedRoutes, dashboardRoute(device), site] },
  ];
}
