import type { RouteObject } from 'react-router-dom';
import { BareLayout } from '../features/shell/layouts/bare-layout';
import { DesktopLayout } from '../features/shell/layouts/desktop-layout';
import { MobileLayout } from '../features/shell/layouts/mobile-layout';
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

/**
 * SPEC §2 route sets, limited to the pages that exist: a path whose page is not built yet falls
 * to the not-found page rather than to a placeholder.
 */
export function buildRoutes(device: Device): RouteObject[] {
  const site: RouteObject =
    device === 'mobile'
      ? {
          path: ROUTES.home,
          element: <MobileLayout />,
          children: [
            { index: true, element: <LandingPage /> },
            { path: ROUTES.login.slice(1), element: loginRoute },
            { path: '*', element: <NotFoundPage /> },
          ],
        }
      : {
          path: ROUTES.home,
          element: <DesktopLayout />,
          children: [
            { index: true, element: <LandingPage /> },
            { path: '*', element: <NotFoundPage /> },
          ],
        };
  const desktopOnly: RouteObject[] =
    device === 'desktop'
      ? [{ element: <BareLayout />, children: [{ path: ROUTES.login, element: loginRoute }] }]
      : [];
  return [{ element: <AppShell />, children: [...desktopOnly, ...sharedRoutes, site] }];
}
