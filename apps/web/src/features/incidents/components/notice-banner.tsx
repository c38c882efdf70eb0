import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyMarkdown } from '../../../ui/lazy-markdown';
import { noticeInLanguageQuery } from '../notice-api';
import { dismissNotice, isNoticeDismissed } from '../dismissed-notice';

export interface VisibleNotice {
  text: string;
  hide(): void;
}

/**
 * The administrators' notice (`GET /api/notice`, read again every 30 minutes per SPEC §7) in the
 * interface's language where the operators wrote it in English, unless the reader hid this text;
 * a changed text shows again.
 */
export function useVisibleNotice(): VisibleNotice | null {
  const { i18n } = useTranslation();
  const notice = useQuery(noticeInLanguageQuery(i18n.language));
  const [, rerender] = useState(0);
  const text = notice.data?.trim() ?? '';
  if (text === '' || isNoticeDismissed(text)) return null;
  return {
    text,
    hide: () => {
      dismissNotice(text);
      rerender((n) => n + 1);
    },
  };
}

/** The notice as Markdown, with a button to hide it. */
export function NoticeBanner({ notice }: { notice: VisibleNotice }) {
  const { t } = useTranslation('incidents');
  return (
    <section
      aria-label={t('notice_label')}
      className="flex items-start justify-between gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950"
    >
      <LazyMarkdown text={notice.text} className="min-w-0" />
      <button
        type="button"
        className="shrink-0 rounded px-2 py-1 text-xs font-medium underline hover:opacity-80"
        aria-label={t('dismiss_notice')}
        onClick={notice.hide}
      >
        {t('dismiss')}
      </button>
    </section>
  );
}
