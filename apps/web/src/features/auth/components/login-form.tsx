import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { loginPath } from '../../../lib/routes';
import { errorMessage } from '../../../api/error-message';
import { login } from '../api/auth-api';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { canSubmitLogin, validateLogin, type LoginForm as LoginFields } from '../validation';
import { FormError } from '../../../ui/form-error';
import { primaryButtonClass } from './form-message';
import { TextField } from '../../../ui/text-field';

export function LoginForm() {
  const { t } = useTranslation('auth');
  const completeSignIn = useCompleteSignIn();
  const [form, setForm] = useState<LoginFields>({ username: '', password: '' });
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = validateLogin(form);
    if (invalid) return setError(t(invalid));
    setError(null);
    setPending(true);
    try {
      completeSignIn(await login(form.username.trim(), form.password), t('login_success'));
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setPending(false);
    }
  }

  const set = (field: keyof LoginFields) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        name="username"
        label={t('username')}
        autoComplete="username"
        value={form.username}
        onChange={(e) => set('username')(e.target.value)}
      />
      <TextField
        name="password"
        type="password"
        label={t('password')}
        autoComplete="current-password"
        value={form.password}
        onChange={(e) => set('password')(e.target.value)}
      />
      <FormError message={error} />
      <button type="submit" disabled={!canSubmitLogin(form) || pending} className={primaryButtonClass}>
        {t('submit_login')}
      </button>
      <Link to={loginPath('reset')} className="self-center text-sm text-indigo-600 hover:underline">
        {t('forgot_password')}
      </Link>
    </form>
  );
}
