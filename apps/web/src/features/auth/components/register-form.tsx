import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { ROUTES } from '../../../lib/routes';
import { errorMessage } from '../../../api/error-message';
import { notify } from '../../shell/notify';
import { register, sendVerificationCode } from '../api/auth-api';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { useSendCode } from '../hooks/use-send-code';
import { canSubmitRegister, validateRegister, type RegisterForm as RegisterFields } from '../validation';
import { ConsentCheckbox } from './consent-checkbox';
import { FormError } from '../../../ui/form-error';
import { primaryButtonClass } from './form-message';
import { OAuthButtons } from './oauth-buttons';
import { SendCodeButton } from './send-code-button';
import { TextField } from '../../../ui/text-field';

const EMPTY: RegisterFields = {
  username: '',
  email: '',
  password: '',
  confirmPassword: '',
  verification_code: '',
  agreeToTerms: false,
  agreeToDataProcessing: false,
};

const legalLink = 'text-indigo-600 underline hover:text-indigo-800';

export function RegisterForm() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const completeSignIn = useCompleteSignIn();
  const [form, setForm] = useState<RegisterFields>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const code = useSendCode(sendVerificationCode, () => notify.success(t('code_sent')));

  const set = <K extends keyof RegisterFields>(field: K, value: RegisterFields[K]) =>
    setForm((f) => ({ ...f, [field]: value }));

  // An invite link is /login?aff=<code>: the inviter is recorded at registration.
  const inviteCode = searchParams.get('aff')?.trim() ?? '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = validateRegister(form);
    if (invalid) return setError(t(invalid));
    setError(null);
    setPending(true);
    try {
      const user = await register({
        username: form.username.trim(),
        password: form.password,
        email: form.email.trim(),
        verification_code: form.verification_code.trim(),
        agree_to_terms: form.agreeToTerms,
        agree_to_data_processing: form.agreeToDataProcessing,
        ...(inviteCode ? { aff_code: inviteCode } : {}),
      });
      completeSignIn(user, t('register_success'));
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setPending(false);
    }
  }

  const passwordTooLong = !canSubmitRegister(form);
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        name="username"
        label={t('username')}
        autoComplete="username"
        value={form.username}
        onChange={(e) => set('username', e.target.value)}
      />
      <TextField
        name="email"
        type="email"
        label={t('email')}
        autoComplete="email"
        value={form.email}
        onChange={(e) => set('email', e.target.value)}
      />
      <TextField
        name="password"
        type="password"
        label={t('password')}
        autoComplete="new-password"
        hint={passwordTooLong ? t('password_too_long') : t('password_hint')}
        aria-invalid={passwordTooLong}
        value={form.password}
        onChange={(e) => set('password', e.target.value)}
      />
      <TextField
        name="confirmPassword"
        type="password"
        label={t('confirm_password')}
        autoComplete="new-password"
        value={form.confirmPassword}
        onChange={(e) => set('confirmPassword', e.target.value)}
      />
      <TextField
        name="verification_code"
        label={t('verification_code')}
        autoComplete="one-time-code"
        value={form.verification_code}
        onChange={(e) => set('verification_code', e.target.value)}
        addon={
          <SendCodeButton
            remaining={code.remaining}
            pending={code.pending}
            onClick={() => void code.sendTo(form.email).then(setError)}
          />
        }
      />
      <ConsentCheckbox
        name="agreeToTerms"
        checked={form.agreeToTerms}
        onChange={(v) => set('agreeToTerms', v)}
      >
        <Trans
          t={t}
          i18nKey="agree_terms"
          components={{
            offer: <Link to={ROUTES.offer} className={legalLink} />,
            terms: <Link to={ROUTES.terms} className={legalLink} />,
            privacy: <Link to={ROUTES.privacy} className={legalLink} />,
          }}
        />
      </ConsentCheckbox>
      <ConsentCheckbox
        name="agreeToDataProcessing"
        checked={form.agreeToDataProcessing}
        onChange={(v) => set('agreeToDataProcessing', v)}
      >
        {t('agree_data_processing')}
      </ConsentCheckbox>
      <FormError message={error} />
      <button type="submit" disabled={passwordTooLong || pending} className={primaryButtonClass}>
        {t('submit_register')}
      </button>
      <OAuthButtons
        consent={{ agreeToTerms: form.agreeToTerms, agreeToDataProcessing: form.agreeToDataProcessing }}
        onError={setError}
      />
    </form>
  );
}
