import { useTranslation } from 'react-i18next';
import { buttonClass } from '../../../ui/styles';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

/** "Page N of M" with previous and next, for the admin lists. */
export function Pager({ page, pageSize, total, onPage }: PagerProps) {
  const { t } = useTranslation('admin');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="mt-3 flex items-center justify-between text-sm text-slate-600">
      <span>{t('page_of', { page, pages, total })}</span>
      <div className="flex gap-2">
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          {t('previous')}
        </button>
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        >
          {t('next')}
        </button>
      </div>
    </div>
  );
}
