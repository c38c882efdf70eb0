import { useLocation } from 'react-router-dom';
import { ROUTES, sitePaths, type SiteBase } from './routes';

/** Links for pages shown both publicly and in the dashboard, staying in the frame they are shown in. */
export function useSitePaths() {
  const { pathname } = useLocation();
  const inDashboard = pathname === ROUTES.dashboard || pathname.startsWith(`${ROUTES.dashboard}/`);
  const base: SiteBase = inDashboard ? ROUTES.dashboard : '';
  return sitePaths(base);
}
