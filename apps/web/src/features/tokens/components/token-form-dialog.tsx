import { TOKEN_MODEL_ALIASES_MAX, type TokenView } from '@tollgate/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../ui/dialog';
import { buttonClass, inputClass, labelClass } from '../../../ui/styles';
import { CheckboxField } from '../../../ui/field';
import { TextField } from '../../../ui/text-field';
import { FormError } from '../../../ui/form-error';
import {
  EMPTY_TOKEN_FORM,
  RATE_LIMIT_FIELDS,
  draftFromForm,
  formFromToken,
  groupBound,
  type RateLimitField,
  type TokenDraft,
  type TokenForm,
  type TokenFormRefusal,
} from '../token-draft';
import { useGroupLimits, type GroupLimits } from '../use-group-limits';
import { ModelAliasesEditor } from './model-aliases-editor';
import { intlLocale } from '../../../i18n/language';

interface TokenFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The key being edited; absent to create one. */
  token?: TokenView;
  busy: boolean;
  onSubmit: (draft: TokenDraft) => Promise<unknown>;
}

/** Create or edit a key: name, expiry, its own quota, model and IP limits, model aliases and rate limits. */
export function TokenFormDialog({ open, onOpenChange, token, busy, onSubmit }: TokenFormDialogProps) {
  const { t } = useTranslation('tokens');
  const groupLimits = useGroupLimits();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={token ? t('edit_title') : t('create_title')}
      description={t('form_description')}
    >
      {open && (
        <TokenFormBody
          key={token?.id ?? 'new'}
          initial={token ? formFromToken(token) : EMPTY_TOKEN_FORM}
          groupLimits={groupLimits}
          busy={busy}
          submitLabel={token ? t('save') : t('create')}
          onCancel={() => onOpenChange(false)}
          onSubmit={onSubmit}
        />
      )}
    </Dialog>
  );
}

interface TokenFormBodyProps {
  initial: TokenForm;
  /** The limits of the key's group, once known (the server checks them in any case). */
  groupLimits: GroupLimits | undefined;
  busy: boolean;
  submitLabel: string;
  onCancel: () => void;
  onSubmit: (draft: TokenDraft) => Promise<unknown>;
}

const LIMIT_FIELD_KEY: Record<RateLimitField, string> = {
  rpm_limit: 'field_rpm_limit',
  tpm_limit: 'field_tpm_limit',
  concurrency_limit: 'field_concurrency_limit',
};

function TokenFormBody({ initial, groupLimits, busy, submitLabel, onCancel, onSubmit }: TokenFormBodyProps) {
  const { t, i18n } = useTranslation('tokens');
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const [form, setForm] = useState<TokenForm>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const set = <K extends keyof TokenForm>(field: K, value: TokenForm[K]) =>
    setForm((f) => ({ ...f, [field]: value }));
  const setLimit = (field: RateLimitField, value: string) =>
    setForm((f) => ({ ...f, limits: { ...f.limits, [field]: value } }));
  const refusalText = ({ problem, field, limit, row, asked, served }: TokenFormRefusal) =>
    t(`problem_${problem}`, {
      field: field ? t(LIMIT_FIELD_KEY[field]) : '',
      limit: limit === undefined ? '' : number.format(limit),
      row: row ?? '',
      asked: asked ?? '',
      served: served ?? '',
      max: TOKEN_MODEL_ALIASES_MAX,
    });
  const groupHint = ({ group, limits }: GroupLimits, field: RateLimitField) => {
    const bound = groupBound(limits, field);
    return t('field_group_limit', { group, limit: bound > 0 ? number.format(bound) : t('no_limit') });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = draftFromForm(form, { groupLimits: groupLimits?.limits });
    if ('problem' in result) {
      setProblem(refusalText(result));
      return;
    }
    setProblem(null);
    void onSubmit(result.draft).catch(() => undefined);
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        id="token-name"
        label={t('field_name')}
        name="name"
        value={form.name}
        maxLength={50}
        onChange={(e) => set('name', e.target.value)}
      />
      <TextField
        id="token-expires"
        label={t('field_expires')}
        hint={t('field_expires_hint')}
        name="expired_time"
        type="datetime-local"
        value={form.expiresAt}
        onChange={(e) => set('expiresAt', e.target.value)}
      />
      <fieldset className="flex flex-col gap-2">
        <CheckboxField
          name="unlimited_quota"
          checked={form.unlimitedQuota}
          onChange={(e) => set('unlimitedQuota', e.target.checked)}
        >
          {t('field_unlimited')}
        </CheckboxField>
        {!form.unlimitedQuota && (
          <TextField
            id="token-quota"
            label={t('field_quota_usd')}
            hint={t('field_quota_hint')}
            name="remain_quota"
            inputMode="decimal"
            value={form.quotaUsd}
            onChange={(e) => set('quotaUsd', e.target.value)}
          />
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <CheckboxField
          name="model_limits_enabled"
          checked={form.modelLimitsEnabled}
          onChange={(e) => set('modelLimitsEnabled', e.target.checked)}
        >
          {t('field_model_limits_enabled')}
        </CheckboxField>
        {form.modelLimitsEnabled && (
          <textarea
            aria-label={t('field_model_limits')}
            name="model_limits"
            rows={3}
            className={inputClass}
            placeholder="gpt-4o-mini&#10;claude-sonnet-4-5"
            value={form.modelLimits}
            onChange={(e) => set('modelLimits', e.target.value)}
          />
        )}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor="token-ips" className={labelClass}>
          {t('field_allow_ips')}
        </label>
        <textarea
          id="token-ips"
          name="allow_ips"
          rows={2}
          className={inputClass}
          placeholder="203.0.113.7&#10;10.0.0.0/8"
          value={form.allowIps}
          onChange={(e) => set('allowIps', e.target.value)}
        />
        <p className="text-xs text-slate-500">{t('field_allow_ips_hint')}</p>
      </div>
      <ModelAliasesEditor rows={form.modelAliases} onChange={(rows) => set('modelAliases', rows)} />
      <fieldset className="flex flex-col gap-2">
        <legend className={labelClass}>{t('field_rate_limits')}</legend>
        {/* Subgrid rows: a label that wraps to two lines keeps its input level with its neighbours'. */}
        <div className="grid gap-3 sm:grid-cols-3 sm:gap-y-1">
          {RATE_LIMIT_FIELDS.map((field) => (
            <div key={field} className="flex flex-col gap-1 sm:row-span-3 sm:grid sm:grid-rows-subgrid">
              <label htmlFor={`token-${field}`} className="text-xs text-slate-700 sm:self-end">
                {t(LIMIT_FIELD_KEY[field])}
              </label>
              <input
                id={`token-${field}`}
                name={field}
                inputMode="numeric"
                className={inputClass}
                placeholder="0"
                value={form.limits[field]}
                onChange={(e) => setLimit(field, e.target.value)}
              />
              {groupLimits && (
                <p className="text-xs text-slate-500" data-testid="group-limit">
                  {groupHint(groupLimits, field)}
                </p>
              )}
            </div>
          ))}
        </div>
        <p className="text-xs text-slate-500">{t('field_rate_limits_hint')}</p>
      </fieldset>
      <FormError message={problem} />
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass.secondary} onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="submit" className={buttonClass.primary} disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
