import { Outlet } from 'react-router-dom';
import { AppToaster } from '../features/shell/components/app-toaster';
import { CookieBanner } from '../features/shell/components/cookie-banner';
import { SessionGuard } from '../features/session/components/session-guard';
import { PageSuspense } from '../ui/page-suspense';

/** What every screen has, on both route sets: session handling, toasts, the cookie banner. */
export function AppShell() {
  return (
    <>
      <SessionGuard />
      <PageSuspense>
        <Outlet />
      </PageSuspense>
      <CookieBanner />
      <AppToaster />
    </>
  );
}
