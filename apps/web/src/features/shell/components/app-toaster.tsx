import { Toaster } from 'sonner';
import { useTranslation } from 'react-i18next';
import { TOAST_DURATION_MS } from '../notify';

/** Bottom-right; on phones lifted above the 72 px bottom bar. */
export function AppToaster() {
  const { t } = useTranslation('shell');
  return (
    <Toaster
      position="bottom-right"
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      mobileOffset={{ bottom: 88, left: 16, right: 16 }}
      containerAriaLabel={t('notifications_label')}
      toastOptions={{ closeButtonAriaLabel: t('toast_close') }}
    />
  );
}
