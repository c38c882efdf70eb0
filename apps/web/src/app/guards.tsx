import { Role } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAccount } from '../features/session/use-account';
import { useIsSignedIn } from '../features/session/user-id-store';
import { ROUTES } from '../lib/routes';
import { NotFoundPage } from '../pages/not-found-page';
import { Loading } from '../ui/query-state';

/** A page that needs sign-in sends a visitor with no stored user id to /login (SPEC §2). */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const signedIn = useIsSignedIn();
  const location = useLocation();
  if (!signedIn) return <Navigate to={ROUTES.login} replace state={{ from: location.pathname }} />;
  return children;
}

/**
 * /login with a stored user id goes to the dashboard, on both route sets. (The original compared
 * the mobile path with /landing-login, so a signed-in phone user stayed on /login: a defect.)
 */
export function RedirectSignedIn({ children }: { children: ReactNode }) {
  const signedIn = useIsSignedIn();
  if (signedIn) return <Navigate to={ROUTES.dashboard} replace />;
  return children;
}

/**
 * SPEC §6: the admin area exists for admins and root only. Anyone else gets the not-found page (the
 * services refuse their calls regardless); `minimum` raises the bar for root-only screens.
 */
export function RequireAdmin({ children, minimum = Role.Admin }: { children: ReactNode; minimum?: Role }) {
  const account = useAccount();
  if (account.isPending) return <Loading />;
  if ((account.data?.role ?? 0) < minimum) return <NotFoundPage />;
  return <>{children}</>;
}
