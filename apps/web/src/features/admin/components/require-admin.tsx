import { Role } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { NotFoundPage } from '../../../app/pages';
import { Loading } from '../../../ui/query-state';
import { useAccount } from '../../session/session-api';

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
