import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import { buttonClass, cardClass } from '../../../ui/styles';
import { TextField } from '../../../ui/text-field';
import { FormError } from '../../../ui/form-error';
import { notify } from '../../shell/notify';
import { passwordChangeProblem, type PasswordChange } from '../password-change';
import { updateSelf } from '../settings-api';

const EMPTY: PasswordChange = { originalPassword: '', password: '', confirmPassword: '' };

export function PasswordForm() {
  const { t } = useTranslation('settings');
  const [change, setChange] = useState<PasswordChange>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: updateSelf,
    onSuccess: () => {
      notify.success(t('auth:password_updated'));
      setChange(EMPTY);
    },
    onError: (error) => setProblem(errorMessage(error, t)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = passwordChangeProblem(change);
    if (found) return setProblem(found === 'original_required' ? t('original_required') : t(`auth:${found}`));
    setProblem(null);
    save.mutate({ original_password: change.originalPassword, password: change.password });
  };

  const field = (key: keyof PasswordChange, label: string, autoComplete: string, name: string) => (
    <TextField
      id={`settings-${name}`}
      name={name}
      type="password"
      label={label}
      autoComplete={autoComplete}
      value={change[key]}
      onChange={(e) => setChange((c) => ({ ...c, [key]: e.target.value }))}
    />
  );

  return (
    <form
      onSubmit={submit}
      noValidate
      className={`${cardClass} flex flex-col gap-4`}
      aria-labelledby="password-title"
    >
      <h2 id="password-title" className="text-lg font-semibold text-slate-900">
        {t('password_title')}
      </h2>
      {field('originalPassword', t('current_password'), 'current-password', 'original_password')}
      {field('password', t('new_password'), 'new-password', 'password')}
      {field('confirmPassword', t('confirm_password'), 'new-password', 'confirmPassword')}
      <p className="text-xs text-slate-500">{t('auth:password_hint')}</p>
      <FormError message={problem} />
      <div>
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          {t('change_password')}
        </button>
      </div>
    </form>
  );
}
