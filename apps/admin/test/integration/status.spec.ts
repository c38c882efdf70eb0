import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PAYMENT_METHODS_CALL,
  QUOTA_PER_USD,
  systemStatusSchema,
  TOLLGATE_VERSION,
  type Envelope,
  type SystemStatus,
} from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, verifyServiceToken } from '@tollgate/platform';
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

  /** Billing's PAYMENT_METHODS_CALL as a small server: checks the service token, answers `methods`. */
  const standInBilling = async (secret: string, methods: { yookassa: boolean; crypto: boolean }) => {
    const asked: number[] = [];
    const server: Server = createServer((request, response) => {
      void verifyServiceToken(
        String(request.headers[SERVICE_TOKEN_HEADER] ?? ''),
        secret,
        PAYMENT_METHODS_CALL.audience,
      )
        .then(
          () => (request.url === PAYMENT_METHODS_CALL.path ? 200 : 404),
          () => 401,
        )
        .then((status) => {
          asked.push(status);
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify(
              status === 200 ? { success: true, message: '', data: methods } : { success: false },
            ),
          );
        });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, asked, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  };

  it('answers /api/status from its configuration, with an OAuth provider on only when its id and secret are both set', async () => {
    const githubSecret = `gh-secret-${randomBytes(6).toString('hex')}`;
    const status = await statusWith({
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
    });

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

  it('offers a card or crypto payment method only when billing holds its credentials, and each when billing cannot be asked', async () => {
    const secret = randomBytes(32).toString('hex');
    const billing = await standInBilling(secret, { yookassa: false, crypto: true });
    try {
      const status = await statusWith(
        { TOLLGATE_INTERNAL_TOKEN_SECRET: secret, BILLING_URL: billing.url },
        (candidate) => !candidate.yookassa_enabled,
      );
      expect(status).toMatchObject({ yookassa_enabled: false, crypto_enabled: true });
      expect(billing.asked[0]).toBe(200);
    } finally {
      await billing.close();
    }

    // Billing unreachable: the operators' switches alone (billing refuses what it cannot take).
    const unreachable = await statusWith({ BILLING_URL: 'http://127.0.0.1:9' });
    expect(unreachable).toMatchObject({ yookassa_enabled: true, crypto_enabled: true });
  });
});
