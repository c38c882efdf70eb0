import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ROUTES, sitePaths } from '../../../lib/routes';

const paths = sitePaths(ROUTES.dashboard);

/** The sections the phone's bottom bar has no room for, and a way to them on any screen. */
export function QuickLinks() {
  const { t } = useTranslation('dashboard');
  const links = [
    { to: ROUTES.dashboardPrice, label: t('nav_price') },
    { to: paths.compare, label: t('nav_compare') },
    { to: ROUTES.dashboardDocs, label: t('nav_docs') },
    { to: ROUTES.dashboardChangelog, label: t('nav_changelog') },
  ];
  return (
    <nav aria-label={t('quick_links_label')} className="grid grid-cols-2 gap-3 md:grid-cols-4">
      {links.map((link) => (
        <Link
          key={link.to}
          to={link.to}
          className="rounded-xl border border-slate-200 bg-white px-4 py-3 text-center text-sm font-medium text-slate-700 shadow-sm hover:border-indigo-300 hover:text-indigo-700"
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
