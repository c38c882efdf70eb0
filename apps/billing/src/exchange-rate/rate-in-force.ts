import type { ExchangeRate } from '@tollgate/contracts';
import { normalizeDecimal, toScaledInteger } from '@tollgate/contracts';

export interface StoredRates {
  bankRate: string | null;
  bankFetchedAt: Date | null;
  overrideRate: string | null;
  overrideSetAt: Date | null;
}

export interface RatePolicy {
  /** A bank rate older than this is stale. */
  staleAfterMs: number;
  /** Serves when nothing else is known. */
  configuredRate: string;
}

const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

/**
 * The rate that applies now: an admin's override wins; else the bank's last rate (stale once it
 * has not been refreshed for `staleAfterMs`); else the configured one, always stale.
 */
export function rateInForce(stored: StoredRates, policy: RatePolicy, now: Date): ExchangeRate {
  if (stored.overrideRate !== null && stored.overrideSetAt !== null) {
    return {
      usd_rub: normalizeDecimal(stored.overrideRate),
      updated_at: epochSeconds(stored.overrideSetAt),
      source: 'admin',
      stale: false,
    };
  }
  if (stored.bankRate !== null && stored.bankFetchedAt !== null) {
    return {
      usd_rub: normalizeDecimal(stored.bankRate),
      updated_at: epochSeconds(stored.bankFetchedAt),
      source: 'cbr',
      stale: now.getTime() - stored.bankFetchedAt.getTime() > policy.staleAfterMs,
    };
  }
  return {
    usd_rub: normalizeDecimal(policy.configuredRate),
    updated_at: epochSeconds(now),
    source: 'config',
    stale: true,
  };
}

const MICRO = 1_000_000n;

/**
 * `rate` raised by `percent` % (the operators' ExchangeRateMarkupPercent), exact to the millionth,
 * rounded half up: 80 with 2.5 % → 82.
 */
export function withMarkup(rate: string, percent: string): string {
  const scaledRate = toScaledInteger(normalizeDecimal(rate), 6);
  const scaledPercent = toScaledInteger(normalizeDecimal(percent), 6);
  if (scaledPercent === 0n) return normalizeDecimal(rate);
  const whole = 100n * MICRO;
  const raised = (scaledRate * (whole + scaledPercent) + whole / 2n) / whole;
  const digits = raised.toString().padStart(7, '0');
  return normalizeDecimal(`${digits.slice(0, -6)}.${digits.slice(-6)}`);
}
