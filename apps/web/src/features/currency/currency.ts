import { useCallback, useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '../../lib/local-storage-keys';

export const CURRENCIES = ['RUB', 'USD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const DEFAULT_CURRENCY: Currency = 'RUB';

/** SPEC §4/§5: any value other than RUB or USD reverts to RUB. */
export function normalizeCurrency(value: unknown): Currency {
  return value === 'USD' || value === 'RUB' ? value : DEFAULT_CURRENCY;
}

export function readDefaultCurrency(storage: Pick<Storage, 'getItem'> = localStorage): Currency {
  return normalizeCurrency(storage.getItem(STORAGE_KEYS.defaultCurrency));
}

const listeners = new Set<() => void>();

export function saveDefaultCurrency(
  currency: Currency,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  storage.setItem(STORAGE_KEYS.defaultCurrency, normalizeCurrency(currency));
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chosen display currency, re-rendering when the settings screen changes it. */
export function useDefaultCurrency(): [Currency, (currency: Currency) => void] {
  const currency = useSyncExternalStore(subscribe, () => readDefaultCurrency());
  const set = useCallback((next: Currency) => saveDefaultCurrency(next), []);
  return [currency, set];
}
