import { useCallback, useState } from 'react';
import { STORAGE_KEYS } from '../../lib/local-storage-keys';

const ACCEPTED = 'accepted';

export function hasCookieConsent(storage: Storage = localStorage): boolean {
  return storage.getItem(STORAGE_KEYS.cookieConsent) === ACCEPTED;
}

/** The banner stays until accepted; the choice survives reloads (SPEC §2). */
export function useCookieConsent(): { accepted: boolean; accept: () => void } {
  const [accepted, setAccepted] = useState(() => hasCookieConsent());
  const accept = useCallback(() => {
    localStorage.setItem(STORAGE_KEYS.cookieConsent, ACCEPTED);
    setAccepted(true);
  }, []);
  return { accepted, accept };
}
