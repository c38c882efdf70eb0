import { useLocation } from 'react-router-dom';
import { Toaster } from 'sonner';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../lib/routes';
import { BOTTOM_BAR_HEIGHT_VAR } from './bottom-bar';
import { TOAST_DURATION_MS } from '../notify';

/** Sonner's own distances from the bottom edge: 24 px on a desktop, 16 px on a phone. */
const DESKTOP_BOTTOM_PX = 24;
/** On phones, 16 px above the bottom bar where one is shown (not on /login), else above the screen's foot. */
const PHONE_BOTTOM_PX = 16;
const phoneBottom = (lift: number) =>
  `calc(var(${BOTTOM_BAR_HEIGHT_VAR}, 0px) + ${PHONE_BOTTOM_PX + lift}px)`;
/**
 * A chat's message box and its Send button fill the bottom of the screen: a toast there (a refused
 * message) would cover the button the user presses next, so on a chat toasts sit above the box.
 */
const ABOVE_MESSAGE_BOX_PX = 96;

/** Bottom-right; on phones lifted above the bottom bar; on a chat, above the message box too. */
export function AppToaster() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const onChat = pathname === ROUTES.dashboardChat || pathname.startsWith(`${ROUTES.dashboardChat}/`);
  const lift = onChat ? ABOVE_MESSAGE_BOX_PX : 0;
  return (
    <Toaster
      position="bottom-right"
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      offset={{ bottom: DESKTOP_BOTTOM_PX + lift }}
      mobileOffset={{ bottom: phoneBottom(lift), left: 16, right: 16 }}
      containerAriaLabel={t('notifications_label')}
      toastOptions={{ closeButtonAriaLabel: t('toast_close') }}
    />
  );
}
