import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { loginPath } from '../../../lib/routes';
import { errorMessage } from '../../../api/error-message';
import { notify } from '../../shell/notify';
import { resetPassword, sendPasswordResetCode } from '../api/auth-api';
import { useSendCode } from '../hooks/use-send-code';
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
  const [form, setForm] = useState<ResetFields>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const code = useSendCode(sendPasswordResetCode, () =>
    notify.success(t('reset_code_sent'), { description: t('reset_code_validity') }),
  );
  const set = (field: keyof ResetFields, value: string) => setForm((f) => ({ ...f, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = validateReset(form);
    if (invalid) return setError(t(invalid));
    setError(null);
    setPending(true);
    try {
      await resetPassword(form.email.trim(), form.verificationCode.trim(), form.newPassword);
      notify.success(t('password_updated'), { description: t('password_updated_hint') });
      navigate(loginPath('login'));
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        name="email"
        type="email"
        label={t('email')}
        autoComplete="email"
        value={form.email}
        onChange={(e) => set('email', e.target.value)}
        addon={
          <SendCodeButton
            remaining={code.remaining}
            pending={code.pending}
            onClick={() => void code.sendTo(form.email).then(setError)}
          />
        }
      />
      <TextField
        name="verificationCode"
        label={t('verification_code')}
        autoComplete="one-time-code"
        value={form.verificationCode}
        onChange={(e) => set('verificationCode', e.target.value)}
      />
      <TextField
        name="newPassword"
        type="password"
        label={t('new_password')}
        autoComplete="new-password"
        hint={t('password_hint')}
        value={form.newPassword}
        onChange={(e) => set('newPassword', e.target.value)}
      />
      <TextField
        name="confirmNewPassword"
        type="password"
        label={t('confirm_new_password')}
        autoComplete="new-password"
        value={form.confirmNewPassword}
        onChange={(e) => set('confirmNewPassword', e.target.value)}
      />
      <FormError message={error} />
      <button type="submit" disabled={pending} className={primaryButtonClass}>
        {t('submit_reset')}
      </button>
    </form>
  );
}
