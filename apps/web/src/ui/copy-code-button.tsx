import { useTranslation } from 'react-i18next';
import { notify } from '../features/shell/notify';
import { copyText } from '../lib/clipboard';

/** The copy button in the corner of a code block. */
export function CopyCodeButton({ code }: { code: string }) {
  const { t } = useTranslation('common');
  const copy = async () => {
    const result = await copyText(code);
    if (result === 'copied') notify.success(t('copied'));
    else notify.destructive(result === 'unsupported' ? t('copy_unsupported') : t('copy_failed'));
  };
  return (
    <button
      type="button"
      onClick={() => void copy()}
      className="absolute top-2 right-2 rounded-md bg-slate-700 px-2 py-1 text-xs font-medium text-white hover:bg-slate-600"
    >
      {t('copy')}
    </button>
  );
}
