import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../lib/routes';

export function BrandLink() {
  const { t } = useTranslation('common');
  return (
    <Link
      to={ROUTES.home}
      className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900"
    >
      <span
        aria-hidden
        className="grid size-8 place-items-center rounded-lg bg-indigo-600 text-sm text-white"
      >
        T
      </span>
      {t('app_name')}
    </Link>
  );
}
