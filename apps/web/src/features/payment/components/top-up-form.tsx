import type { PaymentProviderName, PromoValidation } from '@tollgate/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ROUTES, sitePaths } from '../../../lib/routes';
import { isApiError } from '../../../api/api-error';
import { errorMessage } from '../../../api/error-message';
import { buttonClass, cardClass, inputClass, labelClass } from '../../../ui/styles';
import { CheckboxField } from '../../../ui/field';
import { TextField } from '../../../ui/text-field';
import { FormError } from '../../../ui/form-error';
import { useAccount } from '../../session/use-account';
import { notify } from '../../shell/notify';
import { useSystemStatus } from '../../system/use-system-status';
import { useCreatePayment, useValidatePromo } from '../use-payment-queries';
import { checkPaymentForm, presetAmount, type PaymentFormState } from '../payment-form';
import { rememberAwaitedPayment } from '../awaited-payment';
import { rememberedPaymentMethod, rememberPaymentMethod } from '../payment-method';
import { CryptoFeeTable } from './crypto-fee-table';
import { PaymentReturnNotice } from './payment-return-notice';

const PRESET_AMOUNTS = ['500', '1000', '3000', '5000'] as const;
const paths = sitePaths(ROUTES.dashboard);

type PromoState = { code: string; result: PromoValidation } | null;

/** SPEC §2 payment: amount, card or crypto, promo checked by the server, receipt e-mail and agreement. */
export function TopUpForm() {
  const { t, i18n } = useTranslation('payment');
  const account = useAccount();
  const status = useSystemStatus();
  const promo = useValidatePromo();
  const payment = useCreatePayment();
  const [form, setForm] = useState<PaymentFormState>(() => ({
    amount: '1000',
    provider: rememberedPaymentMethod() ?? 'yookassa',
    promoCode: '',
    email: '',
    agreed: false,
  }));
  const [emailTouched, setEmailTouched] = useState(false);
  const [checkedPromo, setCheckedPromo] = useState<PromoState>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const email = emailTouched ? form.email : form.email || (account.data?.email ?? '');
  // The methods an operator has not switched off (billing refuses the others anyway).
  const providers = (['yookassa', 'crypto', 'test'] as const).filter(
    (provider): provider is PaymentProviderName =>
      provider === 'test'
        ? status.data?.payment_test_enabled === true
        : status.data?.[`${provider}_enabled`] !== false,
  );
  // Known only once the status is read: an operator may have set up no method at all.
  const noMethods = status.data !== undefined && providers.length === 0;
  // The chosen method, or the first one left when an operator switched the chosen one off.
  const chosen = providers.includes(form.provider) ? form.provider : (providers[0] ?? form.provider);
  const set = <K extends keyof PaymentFormState>(field: K, value: PaymentFormState[K]) =>
    setForm((f) => ({ ...f, [field]: value }));

  /** The server's verdict on the code; 'Промокод недействителен' when it cannot be used. */
  const checkPromo = async (code: string): Promise<boolean> => {
    try {
      const result = await promo.mutateAsync(code);
      setCheckedPromo({ code, result });
      // A code that works clears the refusal of the one tried before it.
      setProblem(result.valid ? null : t('promo_invalid'));
      return result.valid;
    } catch (error) {
      setCheckedPromo(null);
      // Billing answers a code it will not take with success:false and HTTP 200: a verdict, not a failed check.
      setProblem(
        isApiError(error) && error.kind === 'rejected' && error.status === 200
          ? t('promo_invalid')
          : `${t('promo_check_failed')}: ${errorMessage(error, t)}`,
      );
      return false;
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPaymentForm({ ...form, email });
    if ('problem' in checked) {
      setProblem(t(`problem_${checked.problem}`));
      return;
    }
    setProblem(null);
    const code = form.promoCode.trim();
    if (code && !(checkedPromo?.code === code && checkedPromo.result.valid) && !(await checkPromo(code)))
      return;
    try {
      const created = await payment.mutateAsync({
        amount: checked.amount,
        promo_code: code || undefined,
        provider: chosen,
        email: email.trim(),
      });
      if (created.pay_url) {
        rememberAwaitedPayment(created.id);
        window.location.assign(created.pay_url);
        return;
      }
      if (created.status === 'success' || created.status === 'test_success') notify.success(t('paid'));
      else notify.default(t('created_pending'));
    } catch (error) {
      setProblem(errorMessage(error, t));
    }
  };

  const promoResult =
    checkedPromo && checkedPromo.code === form.promoCode.trim() ? checkedPromo.result : null;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className={`${cardClass} flex flex-col gap-5`}>
      <PaymentReturnNotice />
      <div className="flex flex-col gap-2">
        <label htmlFor="payment-amount" className={labelClass}>
          {t('amount')}
        </label>
        <div className="flex flex-wrap gap-2">
          {PRESET_AMOUNTS.map((preset) => (
            <button
              key={preset}
              type="button"
              onClick={() => set('amount', preset)}
              className={`rounded-lg border px-3 py-1.5 text-sm font-medium ${
                form.amount === preset
                  ? 'border-indigo-500 bg-indigo-50 text-indigo-700'
                  : 'border-slate-300 text-slate-700 hover:bg-slate-50'
              }`}
            >
              {t('amount_preset', { amount: presetAmount(preset, i18n.language) })}
            </button>
          ))}
        </div>
        <input
          id="payment-amount"
          name="amount"
          inputMode="decimal"
          className={inputClass}
          value={form.amount}
          onChange={(e) => set('amount', e.target.value)}
        />
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className={labelClass}>{t('provider')}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {providers.map((provider) => (
            <label
              key={provider}
              className={`flex cursor-pointer flex-col rounded-lg border p-3 text-sm ${
                chosen === provider ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300 hover:bg-slate-50'
              }`}
            >
              <span className="flex items-center gap-2 font-medium text-slate-800">
                <input
                  type="radio"
                  name="provider"
                  value={provider}
                  className="accent-indigo-600"
                  checked={chosen === provider}
                  onChange={() => {
                    set('provider', provider);
                    rememberPaymentMethod(provider);
                  }}
                />
                {t(`provider_${provider}`)}
              </span>
              <span className="mt-1 text-xs text-slate-500">{t(`provider_${provider}_hint`)}</span>
            </label>
          ))}
        </div>
        {noMethods && <p className="text-sm text-slate-600">{t('no_methods')}</p>}
      </fieldset>
      {chosen === 'crypto' && <CryptoFeeTable />}
      <div className="flex flex-col gap-1">
        <label htmlFor="payment-promo" className={labelClass}>
          {t('promo')}
        </label>
        <div className="flex gap-2">
          <input
            id="payment-promo"
            name="promo_code"
            className={inputClass}
            value={form.promoCode}
            onChange={(e) => set('promoCode', e.target.value)}
          />
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={!form.promoCode.trim() || promo.isPending}
            onClick={() => void checkPromo(form.promoCode.trim())}
          >
            {t('promo_apply')}
          </button>
        </div>
        {promoResult?.valid && (
          <p className="text-sm text-emerald-700">
            {t('promo_valid', { description: promoResult.description })}
          </p>
        )}
      </div>
      <TextField
        id="payment-email"
        label={t('receipt_email')}
        hint={t('receipt_email_hint')}
        name="email"
        type="email"
        value={email}
        onChange={(e) => {
          setEmailTouched(true);
          set('email', e.target.value);
        }}
      />
      <CheckboxField name="agreement" checked={form.agreed} onChange={(e) => set('agreed', e.target.checked)}>
        {t('agreement_before')}{' '}
        <Link to={paths.terms} className="text-indigo-600 underline">
          {t('agreement_terms')}
        </Link>{' '}
        {t('agreement_and')}{' '}
        <Link to={paths.offer} className="text-indigo-600 underline">
          {t('agreement_offer')}
        </Link>
      </CheckboxField>
      <FormError message={problem} />
      <button
        type="submit"
        className={buttonClass.primary}
        disabled={noMethods || payment.isPending || promo.isPending}
      >
        {t('pay')}
      </button>
    </form>
  );
}
