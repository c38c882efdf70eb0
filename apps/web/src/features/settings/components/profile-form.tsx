import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import { queryKeys } from '../../../api/query-keys';
import { buttonClass, cardClass, inputClass, labelClass } from '../../../ui/styles';
import { FormError } from '../../auth/components/form-message';
import { isValidEmail } from '../../auth/validation';
import type { Account } from '../../session/session-api';
import { notify } from '../../shell/notify';
import { updateSelf } from '../settings-api';

/** Display name and e-mail; a new e-mail needs the current password (the server checks it). */
export function ProfileForm({ account }: { account: Account }) {
  const { t } = useTranslation('settings');
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(account.display_name);
  const [email, setEmail] = useState(account.email ?? '');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const emailChanged = email.trim() !== (account.email ?? '');
  const save = useMutation({
    mutationFn: updateSelf,
    onSuccess: () => {
      notify.success(t('profile_saved'));
      setPassword('');
      void queryClient.invalidateQueries({ queryKey: queryKeys.self });
    },
    onError: (error) => setProblem(errorMessage(error, t)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (emailChanged && !isValidEmail(email)) return setProblem(t('auth:email_invalid'));
    setProblem(null);
    save.mutate({
      display_name: displayName.trim(),
      ...(emailChanged ? { email: email.trim(), original_password: password } : {}),
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className={`${cardClass} flex flex-col gap-4`}
      aria-labelledby="profile-title"
    >
      <h2 id="profile-title" className="text-lg font-semibold text-slate-900">
        {t('profile_title')}
      </h2>
      <div className="flex flex-col gap-1">
        <span className={labelClass}>{t('username')}</span>
        <p className="text-sm text-slate-800">{account.username}</p>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="settings-display-name" className={labelClass}>
          {t('display_name')}
        </label>
        <input
          id="settings-display-name"
          name="display_name"
          className={inputClass}
          maxLength={20}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="settings-email" className={labelClass}>
          {t('email')}
        </label>
        <input
          id="settings-email"
          name="email"
          type="email"
          className={inputClass}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      {emailChanged && (
        <div className="flex flex-col gap-1">
          <label htmlFor="settings-email-password" className={labelClass}>
            {t('current_password')}
          </label>
          <input
            id="settings-email-password"
            name="original_password"
            type="password"
            autoComplete="current-password"
            className={inputClass}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
      )}
      <FormError message={problem} />
      <div>
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          {t('save')}
        </button>
      </div>
    </form>
  );
}
