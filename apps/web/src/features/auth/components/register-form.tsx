import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { ROUTES } from '../../../lib/routes';
import { notify } from '../../shell/notify';
import { register, sendVerificationCode } from '../auth-api';
import { useAuthForm } from '../use-auth-form';
import { useCompleteSignIn } from '../use-complete-sign-in';
import { useSendCode } from '../use-send-code';
import { canSubmitRegister, validateRegister, type RegisterForm as RegisterFields } from '../validation';
import { CheckboxField } from '../../../ui/field';
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
  // An invite link is /login?aff=<code>: the inviter is recorded at registration.
  const inviteCode = searchParams.get('aff')?.trim() ?? '';

  const { form, set, bind, error, setError, pending, submit } = useAuthForm(
    EMPTY,
    validateRegister,
    async (fields) => {
      const user = await register({
        username: fields.username.trim(),
        password: fields.password,
        email: fields.email.trim(),
        verification_code: fields.verification_code.trim(),
        agree_to_terms: fields.agreeToTerms,
        agree_to_data_processing: fields.agreeToDataProcessing,
        ...(inviteCode ? { aff_code: inviteCode } : {}),
      });
      completeSignIn(user, t('register_success'));
    },
  );
  const code = useSendCode(sendVerificationCode, () => notify.success(t('code_sent')));

  const passwordTooLong = !canSubmitRegister(form);
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField {...bind('username')} label={t('username')} autoComplete="username" />
      <TextField {...bind('email')} type="email" label={t('email')} autoComplete="email" />
      <TextField
        {...bind('password')}
        type="password"
        label={t('password')}
        autoComplete="new-password"
        hint={passwordTooLong ? t('password_too_long') : t('password_hint')}
        aria-invalid={passwordTooLong}
      />
      <TextField
        {...bind('confirmPassword')}
        type="password"
        label={t('confirm_password')}
        autoComplete="new-password"
      />
      <TextField
        {...bind('verification_code')}
        label={t('verification_code')}
        autoComplete="one-time-code"
        addon={
          <SendCodeButton
            remaining={code.remaining}
            pending={code.pending}
            onClick={() => void code.sendTo(form.email).then(setError)}
          />
        }
      />
      <CheckboxField
        name="agreeToTerms"
        checked={form.agreeToTerms}
        onChange={(e) => set('agreeToTerms', e.target.checked)}
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
      </CheckboxField>
      <CheckboxField
        name="agreeToDataProcessing"
        checked={form.agreeToDataProcessing}
        onChange={(e) => set('agreeToDataProcessing', e.target.checked)}
      >
        {t('agree_data_processing')}
      </CheckboxField>
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
