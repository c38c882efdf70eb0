import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useDefaultCurrency, type Currency } from './currency';
import { displayCurrency } from './display-currency';
import { useExchangeRate } from './use-exchange-rate';
import {
  formatCost,
  formatMinorUnits,
  formatPrice,
  quotaToMicroUnits,
  quotaToMinorUnits,
  usdPriceIn,
} from './money';
import { intlLocale } from '../../i18n/language';

export interface Money {
  currency: Currency;
  /** True when rubles were chosen but the rate is unavailable, so dollars are shown. */
  fellBack: boolean;
  rateError: unknown;
  formatQuota: (quota: number) => string;
  /** Quota as a request's cost: to the millionth below one unit of the currency. */
  formatCost: (quota: number) => string;
  /** Quota as an amount of the currency (for chart axes; exact to the hundredth). */
  quotaToAmount: (quota: number) => number;
  formatUsdPrice: (priceUsd: number) => string;
}

/** Formats quota and USD prices in the user's currency (SPEC §3, §9). */
export function useMoney(): Money {
  const { i18n } = useTranslation();
  const [chosen] = useDefaultCurrency();
  const rate = useExchangeRate();
  const { currency, fellBack } = displayCurrency(chosen, rate.usdRubScaled);
  const locale = intlLocale(i18n.language);
  const scaled = rate.usdRubScaled;
  const formatQuota = useCallback(
    (quota: number) => formatMinorUnits(quotaToMinorUnits(quota, currency, scaled) ?? 0n, currency, locale),
    [currency, scaled, locale],
  );
  const formatCostOfQuota = useCallback(
    (quota: number) => formatCost(quotaToMicroUnits(quota, currency, scaled) ?? 0n, currency, locale),
    [currency, scaled, locale],
  );
  const quotaToAmount = useCallback(
    (quota: number) => Number(quotaToMinorUnits(quota, currency, scaled) ?? 0n) / 100,
    [currency, scaled],
  );
  const formatUsdPrice = useCallback(
    (priceUsd: number) => formatPrice(usdPriceIn(priceUsd, currency, scaled) ?? 0, currency, locale),
    [currency, scaled, locale],
  );
  return {
    currency,
    fellBack,
    rateError: rate.error,
    formatQuota,
    formatCost: formatCostOfQuota,
    quotaToAmount,
    formatUsdPrice,
  };
}
