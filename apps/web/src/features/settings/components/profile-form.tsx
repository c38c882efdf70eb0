import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import { readAgain } from '../../../api/query-client';
import { queryKeys } from '../../../api/query-keys';
import { buttonClass, cardClass, labelClass } from '../../../ui/styles';
import { TextField } from '../../../ui/text-field';
import { FormError } from '../../../ui/form-error';
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
      void readAgain(queryClient, queryKeys.self);
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
      <TextField
        id="settings-display-name"
        label={t('display_name')}
        name="display_name"
        maxLength={20}
        value={displayName}
        onChange={(e) => setDisplayName(e.target.value)}
      />
      <TextField
        id="settings-email"
        label={t('email')}
        name="email"
        type="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      {emailChanged && (
        <TextField
          id="settings-email-password"
          label={t('current_password')}
          name="original_password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
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
