import { randomBytes } from 'node:crypto';
import {
  QUOTA_PER_USD,
  systemStatusSchema,
  TOLLGATE_VERSION,
  type Envelope,
  type SystemStatus,
} from '@tollgate/contracts';
import type { Env } from '@tollgate/runtime';
import {
  eventually,
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { standInBilling } from './stand-in-billing';

jest.setTimeout(60_000);

describe.each(INFRASTRUCTURES)('admin on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-it');
  });

  afterAll(async () => {
    await infra?.close();
  });

  /**
   * Starts admin on a fresh database with `settings`, waits until it is ready and returns /api/status
   * (the first one `until` accepts, when given).
   */
  const statusWith = async (
    settings: Env,
    until: (status: SystemStatus) => boolean = () => true,
  ): Promise<SystemStatus> => {
    const database = await infra.createDatabase();
    const env: Env = {
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'error',
      DATABASE_URL: database.url,
      TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
      TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      ...settings,
    };
    const admin = await startAdmin(env, infra.runtime);
    try {
      await waitUntilReady(admin.url);
      const ready = await getJson(`${admin.url}/health/ready`);
      expect(ready).toEqual({ status: 200, body: { status: 'ok', checks: ['database', 'settings'] } });

      return await eventually('an /api/status the test waits for', async () => {
        const { status, body } = await getJson<Envelope<SystemStatus>>(`${admin.url}/api/status`);
        expect(status).toBe(200);
        expect(body.success).toBe(true);
        const parsed = systemStatusSchema.strict().parse(body.data);
        return until(parsed) ? parsed : undefined;
      });
    } finally {
      await admin.close();
    }
  };

  it('answers /api/status from its configuration, with an OAuth provider on only when its id and secret are both set', async () => {
    const githubSecret = `gh-secret-${randomBytes(6).toString('hex')}`;
    const secret = randomBytes(32).toString('hex');
    const billing = await standInBilling(secret, { yookassa: true, crypto: true });
    const status = await statusWith({
      TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
      BILLING_URL: billing.url,
      SYSTEM_NAME: 'Tollgate Test',
      SERVER_ADDRESS: 'https://llm.example.test',
      CHAT_MODELS: 'gpt-4o-mini, claude-3-5-haiku ,',
      GITHUB_CLIENT_ID: 'gh-client',
      GITHUB_CLIENT_SECRET: githubSecret,
      GOOGLE_CLIENT_ID: 'google-client',
      DISCORD_CLIENT_SECRET: 'discord-secret-without-id',
      DISCORD_REDIRECT_URI: 'https://llm.example.test/oauth/discord',
      TOLLGATE_EMAIL_VERIFICATION: 'false',
      TOLLGATE_PAYMENT_TEST: 'true',
      TOLLGATE_DEFAULT_CURRENCY: 'USD',
    }).finally(() => billing.close());

    expect(status).toEqual({
      system_name: 'Tollgate Test',
      version: TOLLGATE_VERSION,
      server_address: 'https://llm.example.test',
      chat_models: ['gpt-4o-mini', 'claude-3-5-haiku'],
      github_oauth: true,
      github_client_id: 'gh-client',
      google_oauth: false,
      google_client_id: 'google-client',
      discord_oauth: false,
      discord_client_id: '',
      discord_redirect_uri: 'https://llm.example.test/oauth/discord',
      email_verification: false,
      quota_per_unit: QUOTA_PER_USD,
      default_currency: 'USD',
      payment_test_enabled: true,
      start_time: expect.any(Number),
      register_enabled: true,
      password_login: true,
      yookassa_enabled: true,
      crypto_enabled: true,
      group_rate_limits: {},
    });
    expect(JSON.stringify(status)).not.toContain(githubSecret);
  });

  it('answers /api/status with the defaults and every OAuth provider off when nothing is configured', async () => {
    const startedAfter = Math.floor(Date.now() / 1000);
    const status = await statusWith({});

    expect(status).toMatchObject({
      system_name: 'Tollgate',
      server_address: 'http://localhost:3000',
      chat_models: [],
      github_oauth: false,
      google_oauth: false,
      discord_oauth: false,
      email_verification: true,
      payment_test_enabled: false,
      default_currency: 'RUB',
    });
    expect(status.start_time).toBeGreaterThanOrEqual(startedAfter);
  });

  it('offers a card or crypto payment method only when billing holds its credentials, from the first /api/status on', async () => {
    const secret = randomBytes(32).toString('hex');
    // Billing answers a moment after admin asks, as right after a fresh start.
    const billing = await standInBilling(secret, { yookassa: false, crypto: true }, 1_500);
    try {
      // The first status admin gives, not one it settles on later.
      const status = await statusWith({ TOLLGATE_INTERNAL_TOKEN_SECRET: secret, BILLING_URL: billing.url });
      expect(status).toMatchObject({ yookassa_enabled: false, crypto_enabled: true });
      expect(billing.asked[0]).toBe(200);
    } finally {
      await billing.close();
    }
  });

  it('offers no card or crypto payment method while billing has never answered (the web keeps a status for minutes)', async () => {
    const unreachable = await statusWith({ BILLING_URL: 'http://127.0.0.1:9' });
    expect(unreachable).toMatchObject({ yookassa_enabled: false, crypto_enabled: false });
  });
});
