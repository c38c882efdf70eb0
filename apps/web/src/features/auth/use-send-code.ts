import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/error-message';
import { validateEmailForCode } from './validation';
import { useCooldown } from './use-cooldown';

/**
 * Sends a code by e-mail with the 60 s cooldown, started at once so a double click sends one
 * code, and put back to 0 when sending fails so the user can retry.
 */
export function useSendCode(send: (email: string) => Promise<void>, onSent: () => void) {
  const { t } = useTranslation('auth');
  const cooldown = useCooldown();
  const [pending, setPending] = useState(false);

  async function sendTo(email: string): Promise<string | null> {
    const invalid = validateEmailForCode(email);
    if (invalid) return t(invalid);
    cooldown.start();
    setPending(true);
    try {
      await send(email.trim());
      onSent();
      return null;
    } catch (error) {
      cooldown.reset();
      return errorMessage(error, t);
    } finally {
      setPending(false);
    }
  }

  return { remaining: cooldown.remaining, pending, sendTo };
}
