import { Navigate, useLocation } from 'react-router-dom';
import { ROUTES } from '../lib/routes';

/** /topup is where payment providers send the user back: the payment screen, query kept. */
export function TopupRedirect() {
  const { search } = useLocation();
  return <Navigate to={`${ROUTES.dashboardPayment}${search}`} replace />;
}
