import { useTranslation } from 'react-i18next';
import { buttonClass } from './styles';

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** Say how many records there are in all, beside "Page N of M". */
  showTotal?: boolean;
}

/** "Page N of M" with previous and next. */
export function Pager({ page, pageSize, total, onPage, showTotal = false }: PagerProps) {
  const { t } = useTranslation('common');
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <div className="mt-3 flex items-center justify-between text-sm text-slate-600">
      <span>{showTotal ? t('page_of_total', { page, pages, total }) : t('page_of', { page, pages })}</span>
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
