import {
  CHANNEL_STREAM_HEADERS_TIMEOUT_MAX_SECONDS,
  CHANNEL_STREAM_HEADERS_TIMEOUT_MIN_SECONDS,
  CHANNEL_TYPES,
  type ChannelView,
} from '@tollgate/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../ui/dialog';
import { buttonClass } from '../../../ui/styles';
import { CheckboxField, InputField, SelectField, TextAreaField } from '../../../ui/field';
import { errorMessage } from '../../../api/error-message';
import { notify } from '../../shell/notify';
import { fetchUpstreamModels, type ChannelDraft } from '../admin-api';

interface Props {
  /** null: a new channel. */
  channel: ChannelView | null;
  /** A new channel starting from this one's fields (its key is never copied). */
  copyOf?: ChannelView | null;
  busy: boolean;
  onClose: () => void;
  onSave: (draft: ChannelDraft) => void;
}

function isJsonObjectOrEmpty(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The stream timeout field's text as the draft holds it: empty is null (relay's default). */
function streamTimeoutOf(text: string): number | null | 'invalid' {
  if (text.trim() === '') return null;
  const seconds = Number(text);
  return Number.isInteger(seconds) &&
    seconds >= CHANNEL_STREAM_HEADERS_TIMEOUT_MIN_SECONDS &&
    seconds <= CHANNEL_STREAM_HEADERS_TIMEOUT_MAX_SECONDS
    ? seconds
    : 'invalid';
}

/**
 * A channel's main fields with new-api's names and type numbers. The key is write-only: it is never
 * shown back, and left empty on edit it stays as stored. The server checks everything again.
 */
export function ChannelFormDialog({ channel, copyOf = null, busy, onClose, onSave }: Props) {
  const { t } = useTranslation('admin');
  const from = channel ?? copyOf;
  const [draft, setDraft] = useState<ChannelDraft>({
    type: from?.type ?? CHANNEL_TYPES.openai,
    name: channel?.name ?? (copyOf ? t('channel_copy_name', { name: copyOf.name }) : ''),
    key: '',
    base_url: from?.base_url ?? '',
    models: from?.models ?? '',
    group: from?.group ?? 'default',
    model_mapping: from?.model_mapping ?? '',
    priority: from?.priority ?? 0,
    weight: from?.weight ?? 1,
    tag: from?.tag ?? '',
    auto_ban: from?.auto_ban ?? 1,
    test_model: from?.test_model ?? '',
    max_concurrency: from?.max_concurrency ?? 0,
    other: from?.other ?? '',
    stream_headers_timeout: from?.stream_headers_timeout ?? null,
  });
  const [streamTimeoutText, setStreamTimeoutText] = useState(
    from?.stream_headers_timeout == null ? '' : String(from.stream_headers_timeout),
  );
  const streamTimeout = streamTimeoutOf(streamTimeoutText);
  const [hasOwnStreamTimeout] = useState(from?.stream_headers_timeout != null);
  const set = <K extends keyof ChannelDraft>(key: K, value: ChannelDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const mappingValid = isJsonObjectOrEmpty(draft.model_mapping);
  // The upstream's list replaces the field; the operator trims it before saving.
  const upstreamModels = useMutation({
    mutationFn: fetchUpstreamModels,
    onSuccess: (models) => {
      set('models', models.join(','));
      notify.success(t('channel_models_fetched', { count: models.length }));
    },
    onError: (error) => notify.destructive(t('action_failed'), { description: errorMessage(error, t) }),
  });
  const complete =
    draft.name.trim() !== '' && draft.models.trim() !== '' && (channel !== null || draft.key.trim() !== '');
  const valid = mappingValid && streamTimeout !== 'invalid';
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={
        channel
          ? t('channel_edit', { name: channel.name })
          : copyOf
            ? t('channel_copy', { name: copyOf.name })
            : t('channel_create')
      }
    >
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (complete && valid) onSave({ ...draft, stream_headers_timeout: streamTimeout as number | null });
        }}
      >
        <SelectField
          label={t('channel_type')}
          value={draft.type}
          onChange={(e) => set('type', Number(e.target.value))}
        >
          {Object.entries(CHANNEL_TYPES).map(([name, number]) => (
            <option key={number} value={number}>
              {number} · {name}
            </option>
          ))}
        </SelectField>
        <InputField
          label={t('channel_name')}
          value={draft.name}
          maxLength={100}
          onChange={(e) => set('name', e.target.value)}
        />
        <InputField
          label={t('channel_key')}
          type="password"
          autoComplete="off"
          placeholder={channel ? t('channel_key_keep') : ''}
          value={draft.key}
          onChange={(e) => set('key', e.target.value)}
        />
        <InputField
          label={t('channel_base_url')}
          value={draft.base_url}
          placeholder="https://"
          onChange={(e) => set('base_url', e.target.value)}
        />
        <InputField
          label={t('channel_models')}
          value={draft.models}
          placeholder="gpt-4o,gpt-4o-mini"
          onChange={(e) => set('models', e.target.value)}
        />
        {channel ? (
          <div className="flex items-center gap-2">
            <button
              type="button"
              className={buttonClass.secondary}
              disabled={upstreamModels.isPending}
              onClick={() => upstreamModels.mutate(channel.id)}
            >
              {t('channel_fetch_models')}
            </button>
            <span className="text-xs text-slate-500">{t('channel_fetch_models_hint')}</span>
          </div>
        ) : null}
        <InputField
          label={t('group')}
          value={draft.group}
          placeholder="default,vip"
          onChange={(e) => set('group', e.target.value)}
        />
        <TextAreaField
          label={t('channel_model_mapping')}
          error={mappingValid ? undefined : t('channel_mapping_invalid')}
          className="font-mono text-xs"
          rows={3}
          placeholder='{"gpt-4o": "gpt-4o-2024-08-06"}'
          value={draft.model_mapping}
          aria-invalid={!mappingValid}
          onChange={(e) => set('model_mapping', e.target.value)}
        />
        <div className="grid grid-cols-2 gap-3">
          <InputField
            label={t('channel_priority')}
            type="number"
            value={draft.priority}
            onChange={(e) => set('priority', Math.trunc(Number(e.target.value) || 0))}
          />
          <InputField
            label={t('channel_weight')}
            type="number"
            min={0}
            value={draft.weight}
            onChange={(e) => set('weight', Math.max(0, Math.trunc(Number(e.target.value) || 0)))}
          />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <InputField
            label={t('channel_tag')}
            value={draft.tag}
            maxLength={64}
            onChange={(e) => set('tag', e.target.value)}
          />
          <InputField
            label={t('channel_test_model')}
            value={draft.test_model}
            placeholder="gpt-4o-mini"
            onChange={(e) => set('test_model', e.target.value)}
          />
          <InputField
            label={t('channel_max_concurrency')}
            type="number"
            min={0}
            value={draft.max_concurrency}
            onChange={(e) => set('max_concurrency', Math.max(0, Math.trunc(Number(e.target.value) || 0)))}
          />
          <InputField
            label={t('channel_other')}
            value={draft.other}
            placeholder={draft.type === CHANNEL_TYPES.azure ? '2024-10-21' : ''}
            onChange={(e) => set('other', e.target.value)}
          />
        </div>
        <CheckboxField
          checked={draft.auto_ban === 1}
          onChange={(e) => set('auto_ban', e.target.checked ? 1 : 0)}
        >
          {t('channel_auto_ban')}
        </CheckboxField>
        {/* Open from the start when the channel has its own value; the operator folds it at will. */}
        <details open={hasOwnStreamTimeout}>
          <summary className="cursor-pointer text-sm font-medium">{t('channel_advanced')}</summary>
          <div className="mt-2 flex flex-col gap-1">
            <InputField
              label={t('channel_stream_headers_timeout')}
              type="number"
              min={CHANNEL_STREAM_HEADERS_TIMEOUT_MIN_SECONDS}
              max={CHANNEL_STREAM_HEADERS_TIMEOUT_MAX_SECONDS}
              step={1}
              value={streamTimeoutText}
              error={streamTimeout === 'invalid' ? t('channel_stream_headers_timeout_invalid') : undefined}
              aria-invalid={streamTimeout === 'invalid'}
              hint={t('channel_stream_headers_timeout_hint')}
              onChange={(e) => setStreamTimeoutText(e.target.value)}
            />
          </div>
        </details>
        <div className="flex justify-end">
          <button type="submit" className={buttonClass.primary} disabled={busy || !complete || !valid}>
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
