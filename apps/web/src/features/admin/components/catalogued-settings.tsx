import {
  optionFlag,
  settingValueProblem,
  SETTINGS_CATALOGUE,
  type ConfiguredSecrets,
  type SettingDefinition,
  type SettingGroup,
} from '@tollgate/contracts';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { buttonClass, cardClass, inputClass } from '../../../ui/styles';

const GROUPS: readonly SettingGroup[] = [
  'registration',
  'sign_in',
  'mail',
  'site',
  'chat',
  'money',
  'limits',
  'retention',
];

/** The client-id settings and the configured secret that goes with each. */
const SECRET_OF: Record<string, keyof ConfiguredSecrets> = {
  github_client_id: 'github_client_secret',
  google_client_id: 'google_client_secret',
  discord_client_id: 'discord_client_secret',
};

interface Props {
  /** The stored options by key (absent: not set, the configuration applies). */
  values: ReadonlyMap<string, string>;
  /** Which secrets the configuration holds, once known. */
  secrets?: ConfiguredSecrets;
  /** What each setting is while unset, once known (a setting admin cannot tell is absent). */
  configured?: Readonly<Record<string, string>>;
  busy: boolean;
  onSave: (key: string, value: string) => void;
}

/**
 * Every catalogued setting, grouped, with a control for its type: a switch with "as configured"
 * for flags, a monospace text area for JSON documents, a checked field for the rest. Every value
 * is checked with the contracts' settingValueProblem before it can be saved. An empty value unsets the
 * setting.
 */
export function CataloguedSettings({ values, secrets, configured, busy, onSave }: Props) {
  const { t } = useTranslation('admin');
  return (
    <>
      {GROUPS.map((group) => (
        <section key={group} className={cardClass} aria-labelledby={`settings-group-${group}`}>
          <h2 id={`settings-group-${group}`} className="text-lg font-semibold">
            {t(`settings_group_${group}`)}
          </h2>
          <ul className="mt-3 flex flex-col gap-4">
            {SETTINGS_CATALOGUE.filter((setting) => setting.group === group).map((setting) => (
              <li key={setting.key}>
                <SettingRow
                  setting={setting}
                  secretSet={
                    SECRET_OF[setting.slug] && secrets ? secrets[SECRET_OF[setting.slug]!] : undefined
                  }
                  stored={values.get(setting.key) ?? ''}
                  configured={configured?.[setting.key]}
                  busy={busy}
                  onSave={(value) => onSave(setting.key, value)}
                />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function SettingRow({
  setting,
  secretSet,
  stored,
  configured,
  busy,
  onSave,
}: {
  setting: SettingDefinition;
  /** For a client id: whether its secret is configured. */
  secretSet?: boolean;
  stored: string;
  /** The value in force while the setting is unset, when admin can tell it. */
  configured?: string;
  busy: boolean;
  onSave: (value: string) => void;
}) {
  const { t } = useTranslation('admin');
  // Shown only while the configuration decides: a stored value is in force otherwise, and shown as such.
  const inForce = stored === '' && configured !== undefined ? configuredText(setting, configured, t) : null;
  const [value, setValue] = useState(stored);
  const problem = settingValueProblem(setting.key, value);
  const id = `setting-${setting.key}`;
  return (
    <form
      className="grid gap-2 md:grid-cols-[16rem_1fr_auto] md:items-start"
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem) onSave(value.trim());
      }}
    >
      <label htmlFor={id} className="flex flex-col">
        <span className="text-sm font-medium text-slate-800">{t(`setting_${setting.slug}`)}</span>
        <code className="text-xs text-slate-400">{setting.key}</code>
      </label>
      <div className="flex flex-col gap-1">
        {setting.type === 'flag' ? (
          <select id={id} className={inputClass} value={value} onChange={(e) => setValue(e.target.value)}>
            <option value="">
              {inForce === null
                ? t('setting_as_configured')
                : t('setting_as_configured_now', { value: inForce })}
            </option>
            <option value="true">{t('setting_on')}</option>
            <option value="false">{t('setting_off')}</option>
          </select>
        ) : setting.type === 'json' ? (
          <textarea
            id={id}
            className={`${inputClass} font-mono text-xs`}
            rows={4}
            spellCheck={false}
            value={value}
            aria-invalid={problem !== undefined}
            onChange={(e) => setValue(e.target.value)}
          />
        ) : (
          <input
            id={id}
            className={inputClass}
            inputMode={setting.type === 'integer' || setting.type === 'decimal' ? 'decimal' : undefined}
            placeholder={t('setting_as_configured')}
            value={value}
            aria-invalid={problem !== undefined}
            onChange={(e) => setValue(e.target.value)}
          />
        )}
        <span className={`text-xs ${problem ? 'text-red-600' : 'text-slate-500'}`}>
          {problem
            ? t('setting_problem', { problem: t(`setting_problem_${problem.kind}`, problem) })
            : t(`setting_${setting.slug}_hint`)}
        </span>
        {inForce !== null && setting.type !== 'flag' ? (
          <span className="text-xs text-slate-600" data-testid="setting-in-force">
            {t('setting_in_force', { value: inForce })}
          </span>
        ) : null}
        {secretSet !== undefined ? (
          <span
            className={`text-xs ${secretSet ? 'text-emerald-700' : 'text-amber-700'}`}
            data-testid="secret-state"
          >
            {secretSet ? t('setting_secret_set') : t('setting_secret_missing')}
          </span>
        ) : null}
      </div>
      <button
        type="submit"
        className={buttonClass.secondary}
        disabled={busy || value.trim() === stored.trim() || problem !== undefined}
      >
        {t('save')}
      </button>
    </form>
  );
}

/** A configured value as the form shows it: a flag as on or off, nothing (or no JSON document) as not set. */
function configuredText(setting: SettingDefinition, value: string, t: TFunction<'admin'>): string {
  if (setting.type === 'flag') return t(optionFlag(value) ? 'setting_in_force_on' : 'setting_in_force_off');
  if (value.trim() === '' || (setting.type === 'json' && value.trim() === '{}'))
    return t('setting_in_force_empty');
  return value;
}
