import type { Currency } from './currency';

/**
 * What to show money in: the chosen currency, except that rubles need today's rate; while the rate
 * cannot be read, amounts are shown in dollars (exact from quota) and the screen says why.
 */
export function displayCurrency(
  chosen: Currency,
  usdRubScaled: bigint | null,
): { currency: Currency; fellBack: boolean } {
  if (chosen === 'RUB' && usdRubScaled === null) return { currency: 'USD', fellBack: true };
  return { currency: chosen, fellBack: false };
}
