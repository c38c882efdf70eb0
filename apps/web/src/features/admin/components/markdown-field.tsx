import { useTranslation } from 'react-i18next';
import { Markdown } from '../../../ui/markdown';
import { inputClass, labelClass } from '../../../ui/styles';

/** A Markdown text area with its rendered preview beside it. */
export function MarkdownField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <div className="flex flex-col gap-1">
      <span className={labelClass}>{label}</span>
      <div className="grid gap-3 md:grid-cols-2">
        <textarea
          className={`${inputClass} min-h-32 font-mono text-xs`}
          aria-label={label}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
        <div
          className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm"
          aria-label={t('notice_preview')}
        >
          {value.trim() === '' ? <span className="text-slate-400">—</span> : <Markdown text={value} />}
        </div>
      </div>
    </div>
  );
}
