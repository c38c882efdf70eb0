import { normalizeDecimal, toScaledInteger } from '@tollgate/contracts';

/** Rubles as kopecks, exactly. */
export const kopecksOf = (rubles: string): bigint => toScaledInteger(normalizeDecimal(rubles), 2);

/** Kopecks as a normalized ruble decimal: 10050n → '100.5'. */
export function rublesOf(kopecks: bigint): string {
  if (kopecks < 0n) throw new RangeError('an amount of money here is never negative');
  const digits = kopecks.toString().padStart(3, '0');
  return normalizeDecimal(`${digits.slice(0, -2)}.${digits.slice(-2)}`);
}

/** Kopecks as the two-decimal rubles providers want: 150000n → '1500.00'. */
export function providerRubles(kopecks: bigint): string {
  const digits = kopecks.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

export interface ShareState {
  /** What the whole amount is worth (quota credited, or an inviter's reward). */
  total: number;
  /** The payment's amount in kopecks. */
  wholeKopecks: bigint;
  /** Kopecks refunded before this refund. */
  doneKopecks: bigint;
  /** The part of `total` already taken back by them. */
  takenBefore: number;
}

/**
 * The part of `total` a refund of `partKopecks` takes back: proportional and rounded down, except
 * that the refund completing the amount takes whatever is left, so refunding a payment in any
 * number of parts takes back exactly `total`, never a unit more or less.
 */
export function refundShare(state: ShareState, partKopecks: bigint): number {
  if (partKopecks <= 0n) throw new RangeError('a refund is a positive amount');
  if (state.doneKopecks + partKopecks > state.wholeKopecks)
    throw new RangeError('more than the payment is left');
  if (state.doneKopecks + partKopecks === state.wholeKopecks) return state.total - state.takenBefore;
  return Number((BigInt(state.total) * partKopecks) / state.wholeKopecks);
}
