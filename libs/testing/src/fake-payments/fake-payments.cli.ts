import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFakeCrypto, type FakeCrypto } from './fake-crypto.server';
import { startFakeYookassa, type FakeYookassa } from './fake-yookassa.server';

export const FAKE_PAYMENTS_USAGE = `Usage: node scripts/fake-payments.mjs [flags]

Fake YooKassa (card) and crypto providers with payment pages, for trying top-ups locally.
Prints the environment billing needs (KEY=value lines on stdout); start the platform with it.

  --platform URL        the platform's public address: webhooks go to URL/api/user/payment/webhook/…,
                        payers return to URL/dashboard/payment (default http://127.0.0.1:3000)
  --yookassa-port N     port of the fake YooKassa, 0 = any free one (default 0)
  --crypto-port N       port of the fake crypto provider, 0 = any free one (default 0)
  --host H              address to listen on (default 127.0.0.1)
  --late-ms N           delay of the "notification comes later" buttons (default 5000)
  --write-env PATH      also write the environment to PATH (for \`node --env-file\` or \`set -a; . PATH\`)
  --help                this text
`;

export interface FakePaymentsOptions {
  platform: string;
  yookassaPort: number;
  cryptoPort: number;
  host: string;
  lateMs: number;
  envFile?: string;
}

export class FakePaymentsUsageError extends Error {}

const port = (flag: string, raw: string | undefined): number => {
  const value = Number(raw ?? '0');
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new FakePaymentsUsageError(`--${flag} must be a port number, got '${raw}'`);
  return value;
};

export function parseFakePaymentsArgs(argv: readonly string[]): FakePaymentsOptions | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        platform: { type: 'string' },
        'yookassa-port': { type: 'string' },
        'crypto-port': { type: 'string' },
        host: { type: 'string' },
        'late-ms': { type: 'string' },
        'write-env': { type: 'string' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new FakePaymentsUsageError(error instanceof Error ? error.message : String(error));
  }
  if (values['help'] === true) return 'help';
  const platform = String(values['platform'] ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  if (!URL.canParse(platform))
    throw new FakePaymentsUsageError(`--platform must be a URL, got '${platform}'`);
  const lateMs = Number(values['late-ms'] ?? '5000');
  if (!Number.isInteger(lateMs) || lateMs < 0)
    throw new FakePaymentsUsageError(`--late-ms must be a whole number of milliseconds`);
  return {
    platform,
    yookassaPort: port('yookassa-port', values['yookassa-port'] as string | undefined),
    cryptoPort: port('crypto-port', values['crypto-port'] as string | undefined),
    host: String(values['host'] ?? '127.0.0.1'),
    lateMs,
    ...(typeof values['write-env'] === 'string' ? { envFile: values['write-env'] } : {}),
  };
}

/** Billing's configuration names (apps/billing/src/config.ts) with the fakes' values. */
export function billingEnvironment(
  platform: string,
  yookassa: FakeYookassa,
  crypto: FakeCrypto,
): Record<string, string> {
  return {
    YOOKASSA_API_URL: yookassa.apiUrl,
    YOOKASSA_SHOP_ID: yookassa.shopId,
    YOOKASSA_SECRET_KEY: yookassa.secretKey,
    CRYPTO_API_URL: crypto.apiUrl,
    CRYPTO_MERCHANT_ID: crypto.merchantId,
    CRYPTO_API_KEY: crypto.apiKey,
    PAYMENT_WEBHOOK_BASE_URL: platform,
    PAYMENT_RETURN_URL: `${platform}/dashboard/payment`,
  };
}

export interface FakePayments {
  yookassa: FakeYookassa;
  crypto: FakeCrypto;
  environment: Record<string, string>;
  close(): Promise<void>;
}

/** Both fakes, the card one notifying the platform's YooKassa webhook as a shop's settings would. */
export async function startFakePayments(
  options: FakePaymentsOptions,
  log: (line: string) => void,
): Promise<FakePayments> {
  // Fixed dev credentials: the printed environment stays the same across restarts.
  const yookassa = await startFakeYookassa(
    { shopId: '100500', secretKey: 'test_fake_yookassa_secret' },
    {
      port: options.yookassaPort,
      host: options.host,
      notificationUrl: `${options.platform}/api/user/payment/webhook/yookassa`,
      lateNotificationMs: options.lateMs,
      log: (line) => log(`yookassa: ${line}`),
    },
  );
  const crypto = await startFakeCrypto(
    { merchantId: 'fake-merchant', apiKey: 'fake_crypto_api_key' },
    {
      port: options.cryptoPort,
      host: options.host,
      lateNotificationMs: options.lateMs,
      log: (line) => log(`crypto: ${line}`),
    },
  );
  return {
    yookassa,
    crypto,
    environment: billingEnvironment(options.platform, yookassa, crypto),
    close: async () => {
      await Promise.all([yookassa.close(), crypto.close()]);
    },
  };
}

/** Process entry point: prints the environment, then serves until SIGINT or SIGTERM. */
export async function fakePaymentsMain(argv: readonly string[]): Promise<void> {
  let options: FakePaymentsOptions | 'help';
  try {
    options = parseFakePaymentsArgs(argv);
  } catch (error) {
    if (!(error instanceof FakePaymentsUsageError)) throw error;
    process.stderr.write(`fake-payments: ${error.message}\n\n${FAKE_PAYMENTS_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    process.stdout.write(FAKE_PAYMENTS_USAGE);
    return;
  }
  const fakes = await startFakePayments(options, (line) => process.stderr.write(`fake-payments: ${line}\n`));
  const lines = Object.entries(fakes.environment).map(([name, value]) => `${name}=${value}`);
  if (options.envFile) writeFileSync(options.envFile, `${lines.join('\n')}\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stderr.write(
    `fake-payments: YooKassa on ${fakes.yookassa.apiUrl}, crypto on ${fakes.crypto.apiUrl}; ` +
      `start the platform with the environment above\n`,
  );
  const stop = (): void => {
    fakes.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
