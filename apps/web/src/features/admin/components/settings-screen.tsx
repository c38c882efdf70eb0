import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingDefinition, SETTING_KEYS } from '@tollgate/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import { readAgain } from '../../../api/query-client';
import { queryKeys } from '../../../api/query-keys';
import { Markdown } from '../../../ui/markdown';
import { ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass, inputClass } from '../../../ui/styles';
import { notify } from '../../shell/notify';
import { fetchConfiguredSecrets, fetchConfiguredSettings, fetchOptions, saveOption } from '../admin-api';
import { CataloguedSettings } from './catalogued-settings';

const NOTICE_KEY = SETTING_KEYS.notice;
const NOTICE_EN_KEY = SETTING_KEYS.noticeEn;
const NOTICE_KEYS: readonly string[] = [NOTICE_KEY, NOTICE_EN_KEY];

/**
 * Root's settings: the notice (Markdown with a preview; the default, Russian text and an optional
 * English one for English readers), every catalogued setting by group, and other options.
 */
export function SettingsScreen() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const options = useQuery({ queryKey: queryKeys.adminOptions, queryFn: fetchOptions });
  const secrets = useQuery({ queryKey: queryKeys.adminSecrets, queryFn: fetchConfiguredSecrets });
  const configured = useQuery({
    queryKey: [...queryKeys.adminOptions, 'configured'],
    queryFn: fetchConfiguredSettings,
  });
  const save = useMutation({
    mutationFn: ({ key, value }: { key: string; value: string }) => saveOption(key, value),
    onSuccess: (_data, { key }) => {
      notify.success(t('setting_saved', { key }));
      if (NOTICE_KEYS.includes(key)) void readAgain(queryClient, queryKeys.notice);
    },
    onError: (error) => notify.destructive(t('action_failed'), { description: errorMessage(error, t) }),
    onSettled: () => readAgain(queryClient, queryKeys.adminOptions),
  });
  if (options.isPending) return <Loading />;
  if (options.isError) return <ErrorState error={options.error} onRetry={() => void options.refetch()} />;
  const notice = options.data.find((option) => option.key === NOTICE_KEY)?.value ?? '';
  const noticeEn = options.data.find((option) => option.key === NOTICE_EN_KEY)?.value ?? '';
  const values = new Map(options.data.map((option) => [option.key, option.value]));
  const others = options.data.filter(
    (option) => !NOTICE_KEYS.includes(option.key) && settingDefinition(option.key) === undefined,
  );
  return (
    <div className="flex flex-col gap-6">
      <NoticeEditor
        stored={notice}
        storedEn={noticeEn}
        busy={save.isPending}
        onSave={(key, value) => save.mutate({ key, value })}
      />
      <CataloguedSettings
        values={values}
        secrets={secrets.data}
        configured={configured.data}
        busy={save.isPending}
        onSave={(key, value) => save.mutate({ key, value })}
      />
      <section className={cardClass} aria-labelledby="admin-options-title">
        <h2 id="admin-options-title" className="text-lg font-semibold">
          {t('options_title')}
        </h2>
        <p className="mt-1 text-sm text-slate-500">{t('options_hint')}</p>
        <OptionForm busy={save.isPending} onSave={(key, value) => save.mutate({ key, value })} />
        {others.length === 0 ? <p className="mt-3 text-sm text-slate-500">{t('options_empty')}</p> : null}
        <ul className="mt-3 flex flex-col gap-2">
          {others.map((option) => (
            <li key={option.key}>
              <OptionRow
                option={option}
                busy={save.isPending}
                onSave={(value) => save.mutate({ key: option.key, value })}
              />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function NoticeEditor({
  stored,
  storedEn,
  busy,
  onSave,
}: {
  stored: string;
  storedEn: string;
  busy: boolean;
  onSave: (key: string, value: string) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <section className={cardClass} aria-labelledby="admin-notice-title">
      <h2 id="admin-notice-title" className="text-lg font-semibold">
        {t('notice_title')}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{t('notice_hint')}</p>
      <NoticeText
        stored={stored}
        label={t('notice_text')}
        busy={busy}
        onSave={(value) => onSave(NOTICE_KEY, value)}
      />
      <p className="mt-4 text-sm text-slate-500">{t('notice_en_hint')}</p>
      <NoticeText
        stored={storedEn}
        label={t('notice_en_text')}
        busy={busy}
        onSave={(value) => onSave(NOTICE_EN_KEY, value)}
      />
    </section>
  );
}

/** One of the notice's texts, with its Markdown preview and its own Save. */
function NoticeText({
  stored,
  label,
  busy,
  onSave,
}: {
  stored: string;
  label: string;
  busy: boolean;
  onSave: (value: string) => void;
}) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState(stored);
  useEffect(() => setText(stored), [stored]);
  return (
    <>
      <div className="mt-3 grid gap-4 md:grid-cols-2">
        <textarea
          className={`${inputClass} min-h-40 font-mono text-xs`}
          aria-label={label}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <div
          className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm"
          aria-label={t('notice_preview')}
        >
          {text.trim() === '' ? (
            <span className="text-slate-400">{t('notice_none')}</span>
          ) : (
            <Markdown text={text} />
          )}
        </div>
      </div>
      <div className="mt-3 flex justify-end">
        <button
          type="button"
          className={buttonClass.primary}
          disabled={busy || text === stored}
          onClick={() => onSave(text)}
        >
          {t('save')}
        </button>
      </div>
    </>
  );
}

function OptionRow({
  option,
  busy,
  onSave,
}: {
  option: { key: string; value: string };
  busy: boolean;
  onSave: (value: string) => void;
}) {
  const { t } = useTranslation('admin');
  const [value, setValue] = useState(option.value);
  return (
    <form
      className="flex flex-col gap-2 md:flex-row md:items-center"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(value);
      }}
    >
      <code className="w-56 shrink-0 text-sm text-slate-700">{option.key}</code>
      <input
        className={inputClass}
        aria-label={option.key}
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <button type="submit" className={buttonClass.secondary} disabled={busy || value === option.value}>
        {t('save')}
      </button>
    </form>
  );
}

function OptionForm({ busy, onSave }: { busy: boolean; onSave: (key: string, value: string) => void }) {
  const { t } = useTranslation('admin');
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  return (
    <form
      className="mt-3 flex flex-col gap-2 md:flex-row"
      onSubmit={(event) => {
        event.preventDefault();
        if (key.trim() === '') return;
        onSave(key.trim(), value);
        setKey('');
        setValue('');
      }}
    >
      <input
        className={`${inputClass} md:w-56`}
        aria-label={t('option_key')}
        placeholder={t('option_key')}
        value={key}
        onChange={(e) => setKey(e.target.value)}
      />
      <input
        className={inputClass}
        aria-label={t('option_value')}
        placeholder={t('option_value')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit" className={buttonClass.secondary} disabled={busy || key.trim() === ''}>
        {t('option_add')}
      </button>
    </form>
  );
}
