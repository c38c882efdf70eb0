import { useTranslation } from 'react-i18next';
import { buttonClass } from '../../../ui/styles';
import { useChatMutations } from '../use-chat-queries';

/** The right-hand side before a chat is opened. */
export function EmptyConversation() {
  const { t } = useTranslation('chat');
  const { create } = useChatMutations();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
      <h1 className="text-xl font-semibold text-slate-900">{t('title')}</h1>
      <p className="max-w-sm text-sm text-slate-600">{t('empty_hint')}</p>
      <button
        type="button"
        className={buttonClass.primary}
        disabled={create.isPending}
        onClick={() => create.mutate(undefined)}
      >
        {t('new_chat')}
      </button>
    </div>
  );
}
