import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { loginPath } from '../../../lib/routes';
import { login } from '../auth-api';
import { useAuthForm } from '../use-auth-form';
import { useCompleteSignIn } from '../use-complete-sign-in';
import { canSubmitLogin, validateLogin, type LoginForm as LoginFields } from '../validation';
import { FormError } from '../../../ui/form-error';
import { primaryButtonClass } from './form-message';
import { TextField } from '../../../ui/text-field';

export function LoginForm() {
  const { t } = useTranslation('auth');
  const completeSignIn = useCompleteSignIn();
  const { form, bind, error, pending, submit } = useAuthForm<LoginFields>(
    { username: '', password: '' },
    validateLogin,
    async (fields) =>
      completeSignIn(await login(fields.username.trim(), fields.password), t('login_success')),
  );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField {...bind('username')} label={t('username')} autoComplete="username" />
      <TextField
        {...bind('password')}
        type="password"
        label={t('password')}
        autoComplete="current-password"
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
