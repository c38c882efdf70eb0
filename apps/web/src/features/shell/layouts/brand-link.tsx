import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../lib/routes';

/** The logo and the product's name; `nameClassName` lets a narrow sidebar keep the name for screen readers only. */
export function BrandLink({ nameClassName }: { nameClassName?: string } = {}) {
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
      <span className={nameClassName}>{t('app_name')}</span>
    </Link>
  );
}
