import type { RouteObject } from 'react-router-dom';
import { Navigate } from 'react-router-dom';
import { DashboardLayout } from '../features/dashboard/layouts/dashboard-layout';
import { MobileDashboardLayout } from '../features/dashboard/layouts/mobile-dashboard-layout';
import { BareLayout } from '../features/shell/layouts/bare-layout';
import { DesktopLayout } from '../features/shell/layouts/desktop-layout';
import { MobileLayout } from '../features/shell/layouts/mobile-layout';
import { DashboardHomePage } from '../pages/dashboard/dashboard-home-page';
import { TokensPage } from '../pages/dashboard/tokens-page';
import { LandingPage } from '../pages/landing-page';
import { LoginPage } from '../pages/login-page';
import { NotFoundPage } from '../pages/not-found-page';
import { OAuthReturnPage } from '../pages/oauth-return-page';
import { TopupRedirect } from '../pages/topup-redirect';
import { AppShell } from './app-shell';
import type { Device } from './device';
import { RedirectSignedIn, RequireSignIn } from './guards';
import { OAUTH_PROVIDERS, ROUTES } from './routes';

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

/** Dashboard sections both sets have (SPEC §2); chat and admin come in a later issue. */
const dashboardChildren: RouteObject[] = [
  { index: true, element: <DashboardHomePage /> },
  { path: 'tokens', element: <TokensPage /> },
  { path: '*', element: <NotFoundPage /> },
];

/** Public pages both site frames have (SPEC §2). */
const publicChildren: RouteObject[] = [{ index: true, element: <LandingPage /> }];

function dashboardRoute(device: Device): RouteObject {
  return {
    path: ROUTES.dashboard,
    element: (
      <RequireSignIn>{device === 'mobile' ? <MobileDashboardLayout /> : <DashboardLayout />}</RequireSignIn>
    ),
    children: dashboardChildren,
  };
}

/** SPEC §2 route sets: the user-agent picks one at start-up. */
export function buildRoutes(device: Device): RouteObject[] {
  const site: RouteObject =
    device === 'mobile'
      ? {
          path: ROUTES.home,
          element: <MobileLayout />,
          children: [
            ...publicChildren,
            { path: ROUTES.login.slice(1), element: loginRoute },
            { path: 'docs', element: <Navigate to="/docs/getting-started" replace /> },
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
