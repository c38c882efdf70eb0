import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/clipboard';
import { notify } from '../features/shell/notify';

interface CodeBlockProps {
  code: string;
  language?: string;
  testId?: string;
}

/** Monospaced code with a copy button. */
export function CodeBlock({ code, language, testId }: CodeBlockProps) {
  const { t } = useTranslation('common');
  const copy = async () => {
    const result = await copyText(code);
    if (result === 'copied') notify.success(t('copied'));
    else notify.destructive(result === 'unsupported' ? t('copy_unsupported') : t('copy_failed'));
  };
  return (
    <div className="group relative">
      <pre
        data-testid={testId}
        data-language={language}
        className="overflow-x-auto rounded-lg bg-slate-900 p-3 pr-16 text-xs leading-relaxed text-slate-100 md:text-sm"
      >
        <code>{code}</code>
      </pre>
      <button
        type="button"
        onClick={() => void copy()}
        className="absolute top-2 right-2 rounded-md bg-slate-700 px-2 py-1 text-xs font-medium text-white hover:bg-slate-600"
      >
        {t('copy')}
      </button>
    </div>
  );
}
