import { parseChatMessageMetadata, type ChatContent, type ChatMessageView } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { Markdown } from '../../../ui/markdown';
import { buttonClass } from '../../../ui/styles';
import { useMoney } from '../../currency/use-money';
import { notify } from '../../shell/notify';
import { textOfContent } from '../message-text';

function imagesOf(content: ChatContent): string[] {
  return typeof content === 'string'
    ? []
    : content.flatMap((part) => (part.type === 'image_url' ? [part.image_url.url] : []));
}

interface BubbleProps {
  role: ChatMessageView['role'];
  content: ChatContent;
  /** Stored answers carry it; a streaming one does not yet. */
  metadata?: string;
  streaming?: boolean;
  onRegenerate?: () => void;
}

/** One message: the user's as plain text (and images), the model's as Markdown with its cost under it. */
export function MessageBubble({ role, content, metadata, streaming, onRegenerate }: BubbleProps) {
  const { t } = useTranslation('chat');
  const money = useMoney();
  const text = textOfContent(content);
  const meta = metadata ? parseChatMessageMetadata(metadata) : undefined;
  // A short answer often costs less than a kopeck or a cent: shown to the millionth, as in the activity log.
  const costText = (quota: number): string => money.formatCost(quota);
  const copy = async () => {
    const result = await copyText(text);
    if (result === 'copied') notify.success(t('copied'));
    else notify.destructive(t('copy_failed'));
  };
  if (role === 'user') {
    return (
      <div className="flex justify-end" data-testid="user-message">
        <div className="max-w-[85%] rounded-2xl bg-indigo-600 px-4 py-2 text-sm whitespace-pre-wrap text-white">
          {imagesOf(content).map((url) => (
            <img
              key={url.slice(0, 64)}
              src={url}
              alt={t('attached_image')}
              className="mb-2 max-h-48 rounded-lg"
            />
          ))}
          {text}
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1" data-testid="assistant-message" aria-busy={streaming || undefined}>
      <div className="max-w-full rounded-2xl border border-slate-200 bg-white px-4 py-3 text-sm text-slate-800">
        {text === '' && streaming ? (
          <span className="animate-pulse text-slate-400">{t('thinking')}</span>
        ) : (
          <Markdown text={text} />
        )}
      </div>
      {!streaming ? (
        <div className="flex flex-wrap items-center gap-2 px-1 text-xs text-slate-400">
          {meta?.model ? <span>{meta.model}</span> : null}
          {typeof meta?.quota === 'number' ? (
            <span data-testid="answer-cost">{costText(meta.quota)}</span>
          ) : meta?.finish_reason === 'aborted' && meta.cost_unknown ? (
            // Billing never recorded the call (the chat stopped asking once it certainly would have).
            <span data-testid="answer-cost-unknown">{t('cost_unknown')}</span>
          ) : meta?.finish_reason === 'aborted' ? (
            // Billing records a stopped answer's charge shortly after the stop; the list is read again.
            <span data-testid="answer-cost-pending">{t('cost_pending')}</span>
          ) : null}
          {meta?.finish_reason === 'aborted' ? <span>{t('stopped')}</span> : null}
          {meta?.finish_reason === 'error' ? <span className="text-red-500">{t('broke_off')}</span> : null}
          {meta?.finish_reason === 'length' ? (
            // An answer held to what the balance paid for says so: the user can top up for a longer one.
            <span className={meta.answer_limit === undefined ? undefined : 'text-amber-600'}>
              {t(meta.answer_limit === undefined ? 'cut_short' : 'cut_by_balance')}
            </span>
          ) : null}
          <button type="button" className={buttonClass.ghost} onClick={() => void copy()}>
            {t('copy')}
          </button>
          {onRegenerate ? (
            <button type="button" className={buttonClass.ghost} onClick={onRegenerate}>
              {t('regenerate')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
