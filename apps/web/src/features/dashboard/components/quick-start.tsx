import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../lib/routes';
import { useApiBaseUrl } from '../../system/use-api-base-url';
import { CodeBlock } from '../../../ui/code-block';
import { cardClass, tapTargetClass } from '../../../ui/styles';

/** Three steps from an empty account to a first request, with this server's API base URL. */
export function QuickStart() {
  const { t } = useTranslation('dashboard');
  const baseUrl = useApiBaseUrl();
  const curl = `curl ${baseUrl}/chat/completions \\
  -H "Authorization: Bearer $TOLLGATE_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hello!"}]}'`;
  return (
    <section className={cardClass} aria-labelledby="quick-start-title">
      <h2 id="quick-start-title" className="text-lg font-semibold text-slate-900">
        {t('quick_start_title')}
      </h2>
      <ol className="mt-3 flex list-decimal flex-col gap-2 pl-5 text-sm text-slate-700">
        <li>
          <Link
            to={ROUTES.dashboardTokens}
            className={`${tapTargetClass} font-medium text-indigo-600 hover:underline`}
          >
            {t('quick_start_step_key')}
          </Link>
        </li>
        <li>
          <Link
            to={ROUTES.dashboardPayment}
            className={`${tapTargetClass} font-medium text-indigo-600 hover:underline`}
          >
            {t('quick_start_step_topup')}
          </Link>
        </li>
        <li>{t('quick_start_step_base_url')}</li>
      </ol>
      <div className="mt-4 flex flex-col gap-1">
        <p className="text-xs font-medium text-slate-500">{t('quick_start_base_url')}</p>
        <CodeBlock code={baseUrl} testId="api-base-url" />
      </div>
      <div className="mt-4">
        <CodeBlock code={curl} language="bash" />
      </div>
    </section>
  );
}
