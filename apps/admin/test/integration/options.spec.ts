import { randomBytes } from 'node:crypto';
import { Role, SETTING_KEYS, TOPICS, type CatalogOption, type SystemStatus } from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  TopicRecorder,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { AdminClient, adminEnv } from './admin-client';
import { standInBilling, type StandInBilling } from './stand-in-billing';

jest.setTimeout(60_000);

interface OptionView {
  key: string;
  value: string;
}

describe.each(INFRASTRUCTURES)('options and notice on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let admin: RunningService;
  let client: AdminClient;
  let optionEvents: TopicRecorder;
  let billing: StandInBilling;
  const secret = randomBytes(32).toString('hex');

  const put = (body: unknown, role: Role = Role.Root) =>
    client.call<OptionView>('/api/option/', { method: 'PUT', body, role });
  const options = async () =>
    (await client.call<OptionView[]>('/api/option/', { role: Role.Root })).body.data!;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-options-it');
    await infra.runtime.bus.ensureTopics([TOPICS.catalogOption, TOPICS.catalogChannel]);
    optionEvents = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.catalogOption.name,
      `admin-options.${infra.runId}`,
    );
    const database = await infra.createDatabase();
    // Billing holds card credentials, no crypto ones.
    billing = await standInBilling(secret, { yookassa: true, crypto: false });
    admin = await startAdmin(
      adminEnv(database.url, secret, randomBytes(32), {
        BILLING_URL: billing.url,
        SERVER_ADDRESS: 'https://llm.example.test',
        CHAT_MODELS: 'gpt-4o-mini, claude-haiku',
        GITHUB_CLIENT_ID: 'Iv1.configured',
        TOLLGATE_PAYMENT_TEST: 'false',
      }),
      infra.runtime,
    );
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  });

  afterAll(async () => {
    await admin?.close();
    await billing?.close();
    await optionEvents?.stop();
    await infra?.close();
  });

  it('keeps settings set by root, lists them, and publishes each change on catalog.option', async () => {
    expect(await options()).toEqual([]);

    const first = await put({ key: 'QuotaForNewUser', value: 500000 });
    const flag = await put({ key: 'DrawingEnabled', value: true });
    const changed = await put({ key: 'QuotaForNewUser', value: '250000' });

    expect(first).toMatchObject({
      status: 200,
      body: {
        success: true,
        message: 'Настройка сохранена',
        data: { key: 'QuotaForNewUser', value: '500000' },
      },
    });
    expect(flag.body.data).toEqual({ key: 'DrawingEnabled', value: 'true' });
    expect(changed.body.data).toEqual({ key: 'QuotaForNewUser', value: '250000' });
    expect(await options()).toEqual([
      { key: 'DrawingEnabled', value: 'true' },
      { key: 'QuotaForNewUser', value: '250000' },
    ]);
    const published = await eventually('both values of QuotaForNewUser on catalog.option', async () => {
      const values = optionEvents.values<CatalogOption>((value) => value.key === 'QuotaForNewUser');
      return values.length === 2 ? values : undefined;
    });
    expect(published).toEqual([
      { v: 1, key: 'QuotaForNewUser', value: '500000', updated_at: expect.any(Number) },
      { v: 1, key: 'QuotaForNewUser', value: '250000', updated_at: expect.any(Number) },
    ]);
    expect(optionEvents.records.filter((record) => record.key === 'QuotaForNewUser')).toHaveLength(2);
  });

  it('shows the Notice option to everyone at /api/notice, empty until set', async () => {
    const before = await client.call<string>('/api/notice', { role: null });
    expect(before).toMatchObject({ status: 200, body: { success: true, data: '' } });

    const notice = '## Maintenance\n\nOn Sunday at 03:00 MSK <b>for 10 minutes</b>.';
    expect((await put({ key: 'Notice', value: notice })).status).toBe(200);

    const after = await client.call<string>('/api/notice', { role: null });
    expect(after.body).toEqual({ success: true, message: '', data: notice });
  });

  it('lets only root read or change settings', async () => {
    const answers = await Promise.all([
      client.call('/api/option/', { role: Role.Admin }),
      put({ key: 'Notice', value: 'admin was here' }, Role.Admin),
      client.call('/api/option/', { role: Role.User }),
      client.call('/api/option/', { role: null }),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 401]);
    expect((await client.call<string>('/api/notice', { role: null })).body.data).not.toBe('admin was here');
  });

  const badInputs: [string, unknown][] = [
    ['no key', { value: 'x' }],
    ['an empty key', { key: '', value: 'x' }],
    ['a key with spaces', { key: 'Quota For', value: 'x' }],
    ['SQL in the key', { key: "x'; drop table options; --", value: 'x' }],
    ['HTML in the key', { key: '<script>', value: 'x' }],
    ['a 129-character key', { key: `K${'k'.repeat(128)}`, value: 'x' }],
    ['a secret-like key', { key: 'GitHubClientSecret', value: 'x' }],
    ['a token-like key', { key: 'SMTPToken', value: 'x' }],
    ['no value', { key: 'Footer' }],
    ['an object value', { key: 'Footer', value: { a: 1 } }],
    ['a null value', { key: 'Footer', value: null }],
    ['control characters in the value', { key: 'Footer', value: 'a\u0000b' }],
    ['a 1 MB value', { key: 'Footer', value: 'v'.repeat(1_000_000) }],
    ['an array body', [{ key: 'Footer', value: 'x' }]],
    ['a switch that is neither true nor false', { key: SETTING_KEYS.registerEnabled, value: 'maybe' }],
    ['a negative initial quota', { key: SETTING_KEYS.quotaForNewUser, value: -5 }],
    ['a reward above 100 %', { key: SETTING_KEYS.affiliateRewardPercent, value: '150' }],
    ['a sender that is no address', { key: SETTING_KEYS.smtpFrom, value: 'Tollgate' }],
    ['a server address that is no URL', { key: SETTING_KEYS.serverAddress, value: 'llm.example' }],
    ['group rate limits that are not JSON', { key: SETTING_KEYS.groupRateLimits, value: '{rpm: 5' }],
    ['a negative group rate limit', { key: SETTING_KEYS.groupRateLimits, value: '{"default": {"rpm": -1}}' }],
    [
      'an unknown group rate limit field',
      { key: SETTING_KEYS.groupRateLimits, value: '{"default": {"rps": 5}}' },
    ],
  ];

  it.each(badInputs)('refuses %s with a 4xx envelope and stores nothing', async (_case, body) => {
    const before = await options();
    const answer = await put(body);

    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    expect(await options()).toEqual(before);
  });

  it('shows chat models, server address and e-mail verification set by root in /api/status, without a restart', async () => {
    await put({ key: SETTING_KEYS.chatModels, value: 'gpt-4o-mini, claude-haiku' });
    await put({ key: SETTING_KEYS.serverAddress, value: 'https://api.example.test' });
    await put({ key: SETTING_KEYS.emailVerificationEnabled, value: true });
    const status = await eventually('the settings in /api/status', async () => {
      const answer = await client.call<SystemStatus>('/api/status');
      return answer.body.data?.server_address === 'https://api.example.test' ? answer.body.data : undefined;
    });
    expect(status).toMatchObject({
      chat_models: ['gpt-4o-mini', 'claude-haiku'],
      server_address: 'https://api.example.test',
      email_verification: true,
    });
  });

  it("shows the named groups' rate limits root sets in /api/status, never a company group's", async () => {
    const limits = {
      default: { rpm: 60, tpm: 200_000, concurrency: 10 },
      vip: { rpm: 600 },
      acme: { rpm: 30, tpm: 200_000, concurrency: 5 },
    };
    expect((await put({ key: SETTING_KEYS.groupRateLimits, value: JSON.stringify(limits) })).status).toBe(
      200,
    );
    const status = await eventually('the limits in /api/status', async () => {
      const answer = await client.call<SystemStatus>('/api/status');
      return Object.keys(answer.body.data?.group_rate_limits ?? {}).length > 0 ? answer.body.data : undefined;
    });
    expect(status.group_rate_limits).toEqual({
      default: { rpm: 60, tpm: 200_000, concurrency: 10 },
      vip: { rpm: 600, tpm: 0, concurrency: 0 },
    });
    await put({ key: SETTING_KEYS.groupRateLimits, value: '' });
  });

  it('names the setting and the rule when a catalogued value is wrong, in the caller’s language', async () => {
    const body = { key: SETTING_KEYS.logRetentionDays, value: '99999' };
    const russian = await put(body);
    const english = await client.call<OptionView>('/api/option/', {
      method: 'PUT',
      body,
      role: Role.Root,
      language: 'en-US,en;q=0.9',
    });
    const badJson = await client.call<OptionView>('/api/option/', {
      method: 'PUT',
      body: { key: SETTING_KEYS.groupRateLimits, value: '{"vip": {"rpm": -1}}' },
      role: Role.Root,
      language: 'en',
    });

    expect(russian).toMatchObject({
      status: 400,
      body: { success: false, message: 'LogRetentionDays: не больше 36500' },
    });
    expect(english).toMatchObject({
      status: 400,
      body: { success: false, message: 'LogRetentionDays: must be at most 36500' },
    });
    expect(badJson).toMatchObject({
      status: 400,
      body: { success: false, message: 'GroupRateLimits: vip.rpm is not valid' },
    });
    expect((await options()).map((option) => option.key)).not.toContain(SETTING_KEYS.logRetentionDays);
  });

  it('shows the switches and client ids root sets in /api/status: registration, password sign-in, OAuth, payment methods', async () => {
    await put({ key: SETTING_KEYS.registerEnabled, value: false });
    await put({ key: SETTING_KEYS.passwordLoginEnabled, value: 'false' });
    await put({ key: SETTING_KEYS.githubClientId, value: 'Iv1.operators-client' });
    await put({ key: SETTING_KEYS.cryptoEnabled, value: 'false' });
    await put({ key: SETTING_KEYS.testPaymentEnabled, value: 'true' });
    const status = await eventually('the switches in /api/status', async () => {
      const answer = await client.call<SystemStatus>('/api/status');
      return answer.body.data?.payment_test_enabled === true ? answer.body.data : undefined;
    });
    expect(status).toMatchObject({
      register_enabled: false,
      password_login: false,
      github_client_id: 'Iv1.operators-client',
      // No secret is configured for GitHub here: an id alone does not turn it on.
      github_oauth: false,
      yookassa_enabled: true,
      crypto_enabled: false,
      payment_test_enabled: true,
    });
    await put({ key: SETTING_KEYS.registerEnabled, value: '' });
    await eventually('registration open again once the setting is cleared', async () =>
      (await client.call<SystemStatus>('/api/status')).body.data?.register_enabled === true
        ? true
        : undefined,
    );
  });

  it('tells root what each setting is while unset: the configuration, a built-in default, or billing for the payment switches', async () => {
    const configured = await client.call<Record<string, string>>('/api/option/configured', {
      role: Role.Root,
    });
    const asAdmin = await client.call('/api/option/configured', { role: Role.Admin });

    expect(configured.status).toBe(200);
    expect(configured.body.data).toEqual({
      [SETTING_KEYS.registerEnabled]: 'true',
      [SETTING_KEYS.emailVerificationEnabled]: 'true',
      [SETTING_KEYS.quotaForNewUser]: '0',
      [SETTING_KEYS.passwordLoginEnabled]: 'true',
      [SETTING_KEYS.githubOAuthEnabled]: 'true',
      [SETTING_KEYS.googleOAuthEnabled]: 'true',
      [SETTING_KEYS.discordOAuthEnabled]: 'true',
      [SETTING_KEYS.githubClientId]: 'Iv1.configured',
      [SETTING_KEYS.googleClientId]: '',
      [SETTING_KEYS.discordClientId]: '',
      [SETTING_KEYS.serverAddress]: 'https://llm.example.test',
      [SETTING_KEYS.chatModels]: 'gpt-4o-mini,claude-haiku',
      [SETTING_KEYS.exchangeRateMarkupPercent]: '0',
      [SETTING_KEYS.testPaymentEnabled]: 'false',
      [SETTING_KEYS.groupRateLimits]: '{}',
      [SETTING_KEYS.yookassaEnabled]: 'true',
      [SETTING_KEYS.cryptoEnabled]: 'false',
    });
    expect(asAdmin.status).toBe(403);
  });

  it('tells root which OAuth secrets the configuration holds, never their values, and nobody else', async () => {
    const secrets = await client.call('/api/option/secrets', { role: Role.Root });
    const asAdmin = await client.call('/api/option/secrets', { role: Role.Admin });

    expect(secrets.body).toEqual({
      success: true,
      message: '',
      data: { github_client_secret: false, google_client_secret: false, discord_client_secret: false },
    });
    expect(asAdmin.status).toBe(403);
  });
});
