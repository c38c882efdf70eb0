import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/error-message';
import type { AuthMessageKey } from './validation';

type TextKeys<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F] & string;

/**
 * A form of the sign-in page: its fields, the one error shown under it, and whether a submit is
 * under way. `submit` checks the fields first (the message by key), then sends them; a failed call
 * is shown in the server's words.
 */
export function useAuthForm<F extends object>(
  empty: F,
  validate: (form: F) => AuthMessageKey | null,
  send: (form: F) => Promise<void>,
) {
  const { t } = useTranslation('auth');
  const [form, setForm] = useState<F>(empty);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const set = <K extends keyof F>(field: K, value: F[K]) => setForm((f) => ({ ...f, [field]: value }));

  /** The name, value and change handler of the text field for one field. */
  const bind = <K extends TextKeys<F>>(field: K) => ({
    name: field,
    value: form[field] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(field, event.target.value as F[K]),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const invalid = validate(form);
    if (invalid) return setError(t(invalid));
    setError(null);
    setPending(true);
    try {
      await send(form);
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setPending(false);
    }
  }

  return { form, set, bind, error, setError, pending, submit };
}
