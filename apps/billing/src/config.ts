import { z } from 'zod';
import { decimalInput, rubleAmountSchema, usdRubRateSchema } from '@tollgate/contracts';
import { baseServiceConfig, envBoolean, envInt, secret } from '@tollgate/platform';

export const billingConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('billing'),
  PORT: baseServiceConfig.PORT.default('3002'),
  DATABASE_URL: secret(z.string().url()),
  REDIS_URL: secret(z.string().url().optional()),
  KAFKA_BROKERS: z.string().optional(),
  OUTBOX_RELAY_ENABLED: envBoolean().default('true'),

  // usage log and statistics
  /** Usage log rows older than this many days are deleted (0 keeps them); rollups and the ledger stay. */
  LOG_RETENTION_DAYS: envInt()
    .pipe(z.number().refine((days) => days === 0 || days >= 14, 'must be 0 (keep) or at least 14 days'))
    .default('90'),
  LOG_RETENTION_INTERVAL_SECONDS: envInt().pipe(z.number().min(1)).default('3600'),
  /** Rows per DELETE of the retention job. */
  LOG_RETENTION_BATCH_SIZE: envInt().pipe(z.number().min(1).max(100_000)).default('5000'),
  /** Rows a log export reads per query (keyset batches). */
  LOG_EXPORT_BATCH_ROWS: envInt().pipe(z.number().min(1).max(10_000)).default('1000'),
  /** How often the usage consumer's lag is read into tollgate_consumer_lag_messages. */
  CONSUMER_LAG_INTERVAL_SECONDS: envInt().pipe(z.number().min(1)).default('15'),

  // exchange rate
  /** The Central Bank of Russia's daily rates (XML, windows-1251). */
  CBR_DAILY_URL: z.string().url().default('https://www.cbr.ru/scripts/XML_daily.asp'),
  CBR_TIMEOUT_MS: envInt().pipe(z.number().min(100)).default('5000'),
  /** How often the bank's rate is fetched again. */
  EXCHANGE_RATE_REFRESH_SECONDS: envInt().pipe(z.number().min(1)).default('3600'),
  /** A bank rate not refreshed for this long is answered with stale: true. */
  EXCHANGE_RATE_STALE_AFTER_SECONDS: envInt().pipe(z.number().min(1)).default('93600'),
  /** Rubles per dollar when the bank has never answered and no admin set one. */
  TOLLGATE_USD_RUB: usdRubRateSchema.default('90'),

  // payments
  PAYMENT_MIN_AMOUNT_RUB: rubleAmountSchema.default('100'),
  PAYMENT_MAX_AMOUNT_RUB: rubleAmountSchema.default('500000'),
  /** Where the payer returns after paying (the web app's payment page). */
  PAYMENT_RETURN_URL: z.string().url().default('http://127.0.0.1:3000/dashboard/payment'),
  /** The public address of the gateway, for the crypto invoice's callback URL. */
  PAYMENT_WEBHOOK_BASE_URL: z.string().url().default('http://127.0.0.1:3000'),
  PAYMENT_PROVIDER_TIMEOUT_MS: envInt().pipe(z.number().min(100)).default('10000'),
  /** The `test` provider: credits at once, for pilots. Never enable it for the public. */
  TOLLGATE_PAYMENT_TEST: envBoolean().default('false'),
  YOOKASSA_API_URL: z.string().url().default('https://api.yookassa.ru/v3'),
  YOOKASSA_SHOP_ID: z.string().min(1).optional(),
  YOOKASSA_SECRET_KEY: secret(z.string().min(1).optional()),
  CRYPTO_API_URL: z.string().url().default('https://api.heleket.com/v1'),
  CRYPTO_MERCHANT_ID: z.string().min(1).optional(),
  CRYPTO_API_KEY: secret(z.string().min(1).optional()),

  // promo codes
  /** How long a pending payment holds a use of its promo code. */
  PROMO_RESERVATION_MINUTES: envInt().pipe(z.number().min(1)).default('60'),
  /** Unusable promo codes one user may try per minute (validation and payments together). */
  PROMO_TRIES_PER_MINUTE: envInt().pipe(z.number().min(1)).default('10'),

  // affiliate
  /** Percentage of an invitee's top-up quota credited to the inviter's affiliate quota. */
  AFFILIATE_REWARD_PERCENT: decimalInput(3, 4).default('5'),
  /** Smallest affiliate transfer in quota units (500 000 = $1). */
  AFFILIATE_MIN_TRANSFER_QUOTA: envInt().pipe(z.number().min(1)).default('500000'),
});
export type BillingConfig = z.output<typeof billingConfigSchema>;
