import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { loginPath } from '../../../lib/routes';
import { notify } from '../../shell/notify';
import { resetPassword, sendPasswordResetCode } from '../auth-api';
import { useAuthForm } from '../use-auth-form';
import { useSendCode } from '../use-send-code';
import { validateReset, type ResetForm as ResetFields } from '../validation';
import { FormError } from '../../../ui/form-error';
import { primaryButtonClass } from './form-message';
import { SendCodeButton } from './send-code-button';
import { TextField } from '../../../ui/text-field';

const EMPTY: ResetFields = { email: '', verificationCode: '', newPassword: '', confirmNewPassword: '' };

/** SPEC §4: send a code, then the code and a new password; on success, the login tab. */
export function ResetForm() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const { form, bind, error, setError, pending, submit } = useAuthForm<ResetFields>(
    EMPTY,
    validateReset,
    async (fields) => {
      await resetPassword(fields.email.trim(), fields.verificationCode.trim(), fields.newPassword);
      notify.success(t('password_updated'), { description: t('password_updated_hint') });
      navigate(loginPath('login'));
    },
  );
  const code = useSendCode(sendPasswordResetCode, () =>
    notify.success(t('reset_code_sent'), { description: t('reset_code_validity') }),
  );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        {...bind('email')}
        type="email"
        label={t('email')}
        autoComplete="email"
        addon={
          <SendCodeButton
            remaining={code.remaining}
            pending={code.pending}
            onClick={() => void code.sendTo(form.email).then(setError)}
          />
        }
      />
      <TextField {...bind('verificationCode')} label={t('verification_code')} autoComplete="one-time-code" />
      <TextField
        {...bind('newPassword')}
        type="password"
        label={t('new_password')}
        autoComplete="new-password"
        hint={t('password_hint')}
      />
      <TextField
        {...bind('confirmNewPassword')}
        type="password"
        label={t('confirm_new_password')}
        autoComplete="new-password"
      />
      <FormError message={error} />
      <button type="submit" disabled={pending} className={primaryButtonClass}>
        {t('submit_reset')}
      </button>
    </form>
  );
}
