import { TOKEN_MODEL_ALIASES_MAX } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { buttonClass, inputClass, labelClass } from '../../../ui/styles';
import { ALIAS_NAME_MAX_LENGTH, aliasRow, type AliasRow } from '../token-draft';

interface ModelAliasesEditorProps {
  rows: readonly AliasRow[];
  onChange: (rows: AliasRow[]) => void;
}

/** A key's model aliases as rows of "asked model → served model", each removable, up to 64. */
export function ModelAliasesEditor({ rows, onChange }: ModelAliasesEditorProps) {
  const { t } = useTranslation('tokens');
  const edit = (id: number, change: Partial<Pick<AliasRow, 'asked' | 'served'>>) =>
    onChange(rows.map((row) => (row.id === id ? { ...row, ...change } : row)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className={labelClass}>{t('field_model_aliases')}</legend>
      {rows.length > 0 && (
        <ul className="flex flex-col gap-2" data-testid="alias-rows">
          {rows.map((row, index) => (
            <li key={row.id} className="flex items-center gap-2">
              <input
                aria-label={t('alias_asked_row', { row: index + 1 })}
                className={`${inputClass} font-mono`}
                placeholder="gpt-4"
                maxLength={ALIAS_NAME_MAX_LENGTH}
                value={row.asked}
                onChange={(e) => edit(row.id, { asked: e.target.value })}
              />
              <span aria-hidden="true" className="text-slate-400">
                →
              </span>
              <input
                aria-label={t('alias_served_row', { row: index + 1 })}
                className={`${inputClass} font-mono`}
                placeholder="gpt-4o"
                maxLength={ALIAS_NAME_MAX_LENGTH}
                value={row.served}
                onChange={(e) => edit(row.id, { served: e.target.value })}
              />
              <button
                type="button"
                className={buttonClass.ghost}
                aria-label={t('alias_remove_row', { row: index + 1 })}
                onClick={() => onChange(rows.filter((other) => other.id !== row.id))}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <div>
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={rows.length >= TOKEN_MODEL_ALIASES_MAX}
          onClick={() => onChange([...rows, aliasRow()])}
        >
          {t('alias_add')}
        </button>
      </div>
      <p className="text-xs text-slate-500">{t('field_model_aliases_hint')}</p>
    </fieldset>
  );
}
