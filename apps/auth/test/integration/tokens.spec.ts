import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
// The session check spans two services: like the launcher, this test composes them in one process.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startGateway } from '@tollgate/gateway';
import {
  SETTING_KEYS,
  TOKEN_KEY_HASH_PURPOSE,
  TOPICS,
  TokenStatus,
  type IdentityToken,
  type TokenView,
} from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  TopicRecorder,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAuth } from '../../src';
import { call, cookieHeader, type Answer, type CallOptions } from './auth-client';

jest.setTimeout(90_000);

const RU = { 'accept-language': 'ru-RU,ru;q=0.9' };
const EN = { 'accept-language': 'en-US,en;q=0.9' };
const MASKED_KEY = /^sk-[A-Za-z0-9]{4}…[A-Za-z0-9]{4}$/;
const FULL_KEY = /^sk-[A-Za-z0-9]{48}$/;

interface SignedInUser {
  id: number;
  /** Calls the gateway as this user, with the session cookie and New-Api-User. */
  call(path: string, options?: CallOptions): Promise<Answer>;
}

describe.each(INFRASTRUCTURES)('API keys on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let auth: RunningService;
  let gateway: RunningService;
  let tokenEvents: TopicRecorder;
  const masterKey = randomBytes(32);
  const secret = randomBytes(32).toString('hex');
  const lookupKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), TOKEN_KEY_HASH_PURPOSE, 32));
  const expectedHash = (key: string) => createHmac('sha256', lookupKey).update(key).digest('hex');

  const signedInUser = async (): Promise<SignedInUser> => {
    const username = `k${randomBytes(5).toString('hex')}`;
    const registered = await call(gateway.url, '/api/user/register', {
      body: {
        username,
        email: `${username}@example.com`,
        password: 'correct-horse-9',
        agree_to_terms: true,
        agree_to_data_processing: true,
      },
      headers: { 'x-forwarded-for': `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}` },
    });
    expect(registered.status).toBe(200);
    const id = registered.body.data!['id'] as number;
    const session = registered.session!;
    return {
      id,
      call: (path, options = {}) =>
        call(gateway.url, path, {
          ...options,
          headers: { ...cookieHeader(session), 'new-api-user': String(id), ...options.headers },
        }),
    };
  };

  const create = async (user: SignedInUser, body: Record<string, unknown>): Promise<TokenView> => {
    const answer = await user.call('/api/token', { method: 'POST', body });
    expect(answer.status).toBe(200);
    return answer.body.data as unknown as TokenView;
  };
  const page = (answer: Answer) =>
    answer.body.data as unknown as { page: number; page_size: number; total: number; items: TokenView[] };

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'auth-tokens-it');
    await infra.runtime.bus.ensureTopics([TOPICS.identityUser, TOPICS.identityToken, TOPICS.billingBalance]);
    tokenEvents = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.identityToken.name,
      `auth-tokens.${infra.runId}`,
    );
    const database = await infra.createDatabase();
    auth = await startAuth(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        DATABASE_URL: database.url,
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        TOLLGATE_ENCRYPTION_KEY: masterKey.toString('base64'),
        TOLLGATE_EMAIL_VERIFICATION: 'false',
      },
      infra.runtime,
    );
    await waitUntilReady(auth.url);
    gateway = await startGateway({
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
      AUTH_URL: auth.url,
      BILLING_URL: auth.url,
      RELAY_URL: auth.url,
      CHAT_URL: auth.url,
      ADMIN_URL: auth.url,
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await auth?.close();
    await tokenEvents?.stop();
    await infra?.close();
  });

  it('creates, reads, lists, updates and deletes a key, masked everywhere but copy-key', async () => {
    const user = await signedInUser();

    const created = await user.call('/api/token', {
      method: 'POST',
      body: {
        name: 'ci <b>bot</b>',
        remain_quota: 5000,
        expired_time: -1,
        model_limits_enabled: true,
        model_limits: 'gpt-4o,claude-3-5-sonnet',
        allow_ips: '10.0.0.1\n192.168.0.0/16\n2001:db8::/32',
        group: 'default',
      },
      headers: EN,
    });
    expect(created.status).toBe(200);
    expect(created.body.message).toBe('Token created');
    const token = created.body.data as unknown as TokenView;
    expect(token).toEqual({
      id: expect.any(Number),
      user_id: user.id,
      key: expect.stringMatching(MASKED_KEY),
      name: 'ci <b>bot</b>',
      status: TokenStatus.Enabled,
      created_time: expect.any(Number),
      accessed_time: 0,
      expired_time: -1,
      remain_quota: 5000,
      unlimited_quota: false,
      used_quota: 0,
      model_limits_enabled: true,
      model_limits: 'gpt-4o,claude-3-5-sonnet',
      allow_ips: '10.0.0.1\n192.168.0.0/16\n2001:db8::/32',
      group: 'default',
      rpm_limit: 0,
      tpm_limit: 0,
      concurrency_limit: 0,
      model_aliases: {},
    });
    expect(Math.abs(token.created_time - Date.now() / 1000)).toBeLessThan(60);

    const read = await user.call(`/api/token/${token.id}`);
    expect(read.body.data).toEqual(token);
    const listed = page(await user.call('/api/token'));
    expect(listed).toEqual({ page: 1, page_size: 100, total: 1, items: [token] });

    const copied = await user.call(`/api/token/${token.id}/key`, { method: 'POST' });
    expect(copied.status).toBe(200);
    const fullKey = (copied.body.data as { key: string }).key;
    expect(fullKey).toMatch(FULL_KEY);
    expect(token.key).toBe(`sk-${fullKey.slice(3, 7)}…${fullKey.slice(-4)}`);

    const event = await eventually(
      'the key on identity.token',
      async () => tokenEvents.values<IdentityToken>((value) => value.id === token.id)[0],
    );
    expect(event).toEqual({
      v: 1,
      id: token.id,
      user_id: user.id,
      name: 'ci <b>bot</b>',
      key_hash: expectedHash(fullKey),
      status: TokenStatus.Enabled,
      expired_time: -1,
      remain_quota: 5000,
      unlimited_quota: false,
      model_limits_enabled: true,
      model_limits: ['gpt-4o', 'claude-3-5-sonnet'],
      allow_ips: ['10.0.0.1', '192.168.0.0/16', '2001:db8::/32'],
      group: 'default',
      rpm_limit: 0,
      tpm_limit: 0,
      concurrency_limit: 0,
      model_aliases: {},
      used_quota: 0,
      updated_at: expect.any(Number),
    });

    const updated = await user.call('/api/token', {
      method: 'PUT',
      body: { id: token.id, name: 'renamed', status: TokenStatus.Disabled, unlimited_quota: true },
      headers: RU,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('Токен обновлён');
    expect(updated.body.data).toEqual({
      ...token,
      name: 'renamed',
      status: TokenStatus.Disabled,
      unlimited_quota: true,
    });
    await eventually(
      'the disabled key on identity.token',
      async () =>
        tokenEvents.values<IdentityToken>(
          (value) => value.id === token.id && value.status === TokenStatus.Disabled,
        )[0],
    );

    const deleted = await user.call(`/api/token/${token.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect((await user.call(`/api/token/${token.id}`)).status).toBe(404);
    expect(page(await user.call('/api/token')).total).toBe(0);
    await eventually('the tombstone on identity.token', async () =>
      tokenEvents.records.find((record) => record.key === String(token.id) && record.value === null),
    );
    expect(JSON.stringify(tokenEvents.records)).not.toContain(fullKey.slice(3));
  });

  it("keeps a key's own rate limits within its group's (GroupRateLimits), and publishes them to relay", async () => {
    await infra.runtime.bus.publish([
      {
        topic: TOPICS.catalogOption.name,
        key: SETTING_KEYS.groupRateLimits,
        value: {
          v: 1,
          key: SETTING_KEYS.groupRateLimits,
          value: JSON.stringify({ default: { rpm: 60, tpm: 100_000, concurrency: 0 }, vip: { rpm: 600 } }),
          updated_at: Math.floor(Date.now() / 1000),
        },
      },
    ]);
    const user = await signedInUser();
    const above = await eventually('the group limits in auth', async () => {
      const answer = await user.call('/api/token', {
        method: 'POST',
        body: { name: 'too fast', rpm_limit: 61 },
        headers: RU,
      });
      return answer.status === 400 ? answer : undefined;
    });
    expect(above.body).toMatchObject({
      success: false,
      message: 'Лимит ключа не может быть выше лимита его группы: 60',
    });
    const key = await create(user, { name: 'bounded', rpm_limit: 60, tpm_limit: 5000, concurrency_limit: 3 });
    expect(key).toMatchObject({ rpm_limit: 60, tpm_limit: 5000, concurrency_limit: 3 });
    // A key names no group or its owner's: another group's private channels and prices are not its
    // to take, and its limits are always its owner's group's.
    const otherGroup = await user.call('/api/token', {
      method: 'POST',
      body: { name: 'vip', group: 'vip', rpm_limit: 500 },
      headers: EN,
    });
    expect(otherGroup.status).toBe(400);
    expect(otherGroup.body.message).toBe("A key can only be in its owner's group: default");
    const moved = await user.call('/api/token', {
      method: 'PUT',
      body: { id: key.id, group: 'vip' },
      headers: RU,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toBe('Ключ может быть только в группе его владельца: default');
    expect((await user.call(`/api/token/${key.id}`)).body.data).toMatchObject({ group: '' });
    const tightened = await user.call('/api/token', {
      method: 'PUT',
      body: { id: key.id, rpm_limit: 10 },
    });
    expect(tightened.status).toBe(200);
    const event = await eventually('the limits on identity.token', async () =>
      tokenEvents
        .values<IdentityToken>((value) => value.id === key.id)
        .find((value) => value.rpm_limit === 10),
    );
    expect(event).toMatchObject({ rpm_limit: 10, tpm_limit: 5000, concurrency_limit: 3 });
  });

  it("tells a signed-in user their own group's limits and no other group's", async () => {
    await infra.runtime.bus.publish([
      {
        topic: TOPICS.catalogOption.name,
        key: SETTING_KEYS.groupRateLimits,
        value: {
          v: 1,
          key: SETTING_KEYS.groupRateLimits,
          value: JSON.stringify({
            default: { rpm: 60, tpm: 100_000, concurrency: 0 },
            vip: { rpm: 600 },
            acme: { rpm: 30, tpm: 200_000, concurrency: 5 },
          }),
          updated_at: Math.floor(Date.now() / 1000),
        },
      },
    ]);
    const user = await signedInUser();
    const answer = await eventually('the group limits in auth', async () => {
      const limits = await user.call('/api/token/group_limits');
      return limits.body.data?.['limits'] !== undefined ? limits : undefined;
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ group: 'default', limits: { rpm: 60, tpm: 100_000, concurrency: 0 } });
    expect(JSON.stringify(answer.body)).not.toContain('acme');
    expect((await call(gateway.url, '/api/token/group_limits')).status).toBe(401);
  });

  it("keeps a key's model aliases, refuses chains and self-mappings, and publishes them to relay", async () => {
    const user = await signedInUser();
    const key = await create(user, {
      name: 'aliased',
      model_aliases: { 'gpt-4': 'gpt-4o', ' claude ': 'claude-sonnet-4' },
    });
    expect(key.model_aliases).toEqual({ 'gpt-4': 'gpt-4o', claude: 'claude-sonnet-4' });
    for (const model_aliases of [{ a: 'a' }, { a: 'b', b: 'c' }, { '': 'x' }, ['gpt-4']]) {
      const refused = await user.call('/api/token', {
        method: 'POST',
        body: { name: 'bad', model_aliases },
        headers: EN,
      });
      expect(refused.status).toBe(400);
    }
    const updated = await user.call('/api/token', {
      method: 'PUT',
      body: { id: key.id, model_aliases: { 'gpt-3.5-turbo': 'gpt-4o-mini' } },
    });
    expect(updated.status).toBe(200);
    const event = await eventually('the aliases on identity.token', async () =>
      tokenEvents
        .values<IdentityToken>((value) => value.id === key.id)
        .find((value) => value.model_aliases['gpt-3.5-turbo'] === 'gpt-4o-mini'),
    );
    expect(event.model_aliases).toEqual({ 'gpt-3.5-turbo': 'gpt-4o-mini' });
  });

  it('keeps each user to their own keys: someone else’s key answers 404 and stays unchanged', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const token = await create(owner, { name: 'private' });

    const attempts = await Promise.all([
      other.call(`/api/token/${token.id}`),
      other.call(`/api/token/${token.id}/key`, { method: 'POST' }),
      other.call('/api/token', { method: 'PUT', body: { id: token.id, name: 'stolen' } }),
      other.call(`/api/token/${token.id}`, { method: 'DELETE' }),
    ]);

    for (const answer of attempts) {
      expect(answer.status).toBe(404);
      expect(answer.body.success).toBe(false);
      expect(JSON.stringify(answer.body)).not.toMatch(/sk-/);
    }
    expect(page(await other.call('/api/token')).total).toBe(0);
    expect((await owner.call(`/api/token/${token.id}`)).body.data).toEqual(token);
  });

  it('searches names and pages the list, 100 a page by default', async () => {
    const user = await signedInUser();
    for (const name of ['alpha one', 'alpha two', 'beta', '100%_literal']) await create(user, { name });

    const all = page(await user.call('/api/token'));
    const second = page(await user.call('/api/token?p=2&page_size=3'));
    const alpha = page(await user.call('/api/token/search?keyword=ALPHA'));
    const literal = page(await user.call(`/api/token/search?keyword=${encodeURIComponent('%_')}`));

    expect(all).toMatchObject({ page: 1, page_size: 100, total: 4 });
    expect(all.items.map((item) => item.name)).toEqual(['100%_literal', 'beta', 'alpha two', 'alpha one']);
    expect(second).toMatchObject({ page: 2, page_size: 3, total: 4 });
    expect(second.items.map((item) => item.name)).toEqual(['alpha one']);
    expect(alpha.items.map((item) => item.name).sort()).toEqual(['alpha one', 'alpha two']);
    expect(literal.items.map((item) => item.name)).toEqual(['100%_literal']);
    for (const item of all.items) expect(item.key).toMatch(MASKED_KEY);
  });

  describe('refuses bad input with a 4xx envelope and no record', () => {
    let user: SignedInUser;
    let existing: TokenView;
    beforeAll(async () => {
      user = await signedInUser();
      existing = await create(user, { name: 'kept' });
    });

    const cases: [string, Record<string, unknown>, string | RegExp][] = [
      ['an empty name', { name: '' }, 'Название токена не может быть пустым'],
      ['a blank name', { name: '   ' }, 'Название токена не может быть пустым'],
      ['no name', {}, 'Название токена не может быть пустым'],
      ['a 51-character name', { name: 'n'.repeat(51) }, 'Название токена должно быть не длиннее 50 символов'],
      ['a name that is a number', { name: 42 }, 'Название токена не может быть пустым'],
      ['control characters in the name', { name: 'bad\u0000name\u001b' }, 'Некорректные параметры токена'],
      ['a bad IP', { name: 'x', allow_ips: '10.0.0.300' }, 'Разрешённые IP: укажите адреса или подсети CIDR'],
      [
        'a bad CIDR',
        { name: 'x', allow_ips: '10.0.0.0/33' },
        'Разрешённые IP: укажите адреса или подсети CIDR',
      ],
      [
        'a host name as IP',
        { name: 'x', allow_ips: ['example.com'] },
        'Разрешённые IP: укажите адреса или подсети CIDR',
      ],
      ['a negative quota', { name: 'x', remain_quota: -1 }, 'Квота токена не может быть отрицательной'],
      ['a quota as text', { name: 'x', remain_quota: '100' }, 'Некорректные параметры токена'],
      ['a fractional quota', { name: 'x', remain_quota: 1.5 }, 'Некорректные параметры токена'],
      ['unlimited_quota as text', { name: 'x', unlimited_quota: 'yes' }, 'Некорректные параметры токена'],
      ['an expiry before -1', { name: 'x', expired_time: -2 }, 'Некорректные параметры токена'],
      [
        'SQL in the group',
        { name: 'x', group: "vip'; drop table tokens; --" },
        'Некорректные параметры токена',
      ],
      ['HTML in the group', { name: 'x', group: '<script>' }, 'Некорректные параметры токена'],
      ['a 1 MB name', { name: 'n'.repeat(1_000_000) }, /./],
      ['a 1 MB IP list', { name: 'x', allow_ips: '1'.repeat(1_000_000) }, /./],
    ];

    it.each(cases)('create with %s', async (_case, body, expected) => {
      const answer = await user.call('/api/token', { method: 'POST', body, headers: RU });

      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body).toEqual({ success: false, message: expect.stringMatching(expected) });
      expect(page(await user.call('/api/token')).total).toBe(1);
    });

    it.each(cases.filter(([, body]) => 'name' in body))('update with %s', async (_case, body) => {
      const answer = await user.call('/api/token', { method: 'PUT', body: { id: existing.id, ...body } });

      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.success).toBe(false);
      expect((await user.call(`/api/token/${existing.id}`)).body.data).toEqual(existing);
    });

    it('answers in English when asked, and refuses statuses a user may not set and malformed ids', async () => {
      const english = await user.call('/api/token', { method: 'POST', body: { name: '' }, headers: EN });
      const expired = await user.call('/api/token', {
        method: 'PUT',
        body: { id: existing.id, status: TokenStatus.Expired },
      });
      const badId = await user.call('/api/token/abc');
      const badPage = await user.call('/api/token?p=-1');
      // new-api reads a p below 1 as the first page: scripts written for one-api's pages from 0 send p=0.
      const firstPage = await user.call('/api/token?p=0');
      expect(firstPage.status).toBe(200);
      expect(firstPage.body.data).toMatchObject({ page: 1 });

      expect(english.body).toEqual({ success: false, message: 'Token name cannot be empty' });
      for (const answer of [expired, badId, badPage]) {
        expect(answer.status).toBe(400);
        expect(answer.body.success).toBe(false);
      }
    });

    it('stores SQL and markup in a name as plain text', async () => {
      const name = `'); drop table tokens; -- <img src=x>`;
      const token = await create(user, { name });
      expect((await user.call(`/api/token/${token.id}`)).body.data).toMatchObject({ name });
      await user.call(`/api/token/${token.id}`, { method: 'DELETE' });
    });
  });
});
