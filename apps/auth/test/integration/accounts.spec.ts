import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The session check spans two services: like the launcher, this test composes them in one process.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startGateway } from '@tollgate/gateway';
import { SignJWT } from 'jose';
import { Role, SESSION_LOOKUP, TOPICS, UserStatus, type IdentityUser } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { signInternalToken } from '@tollgate/platform';
import type { Env, RunningService } from '@tollgate/runtime';
import {
  eventually,
  freePort,
  INFRASTRUCTURES,
  openInfrastructure,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAuth } from '../../src';
import { call, cookieHeader, type Answer } from './auth-client';
import { codeIn, outboxMailsTo } from './mail-reader';

jest.setTimeout(90_000);

const LOGIN_LIMIT_PER_USERNAME = 3;
const LOGIN_LIMIT_PER_IP = 20;
const PASSWORD = 'correct-horse-9';
const RU = { 'accept-language': 'ru-RU,ru;q=0.9' };
const EN = { 'accept-language': 'en-US,en;q=0.9' };

/** A stand-in admin service that records the identity the gateway vouches for. */
async function startRecordingAdmin(): Promise<{
  url: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}> {
  const seen: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, message: '', data: 'admin' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(INFRASTRUCTURES)('accounts on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let database: TestDatabase;
  let auth: RunningService;
  let gateway: RunningService;
  let admin: Awaited<ReturnType<typeof startRecordingAdmin>>;
  let userEvents: TopicRecorder;
  let outboxDir: string;
  const secret = randomBytes(32).toString('hex');
  const rootName = `root${randomBytes(3).toString('hex')}`;
  const rootPassword = `root-pw-${randomBytes(6).toString('hex')}`;
  let ipCounter = 0;
  let usersBeforeBadInput: number;
  /** A client address of its own per scenario, so rate limits of one never touch another (or an older run on Redis). */
  const ownAddress = () => ({
    'x-forwarded-for': `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${++ipCounter % 250}`,
  });
  const newName = () => `u${randomBytes(5).toString('hex')}`;
  const emailOf = (username: string) => `${username}@example.com`;

  const authEnv = (db: TestDatabase, extra: Record<string, string> = {}): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: db.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
    TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TOLLGATE_ROOT_USERNAME: rootName,
    TOLLGATE_ROOT_PASSWORD: rootPassword,
    TOLLGATE_EMAIL_VERIFICATION: 'true',
    MAIL_OUTBOX_DIR: outboxDir,
    AUTH_LOGIN_LIMIT_PER_USERNAME: String(LOGIN_LIMIT_PER_USERNAME),
    AUTH_LOGIN_LIMIT_PER_IP: String(LOGIN_LIMIT_PER_IP),
    AUTH_VERIFICATION_LIMIT_PER_IP: '100',
    ...extra,
  });

  let authPort: number;
  const startAuthService = async () => {
    auth = await startAuth(authEnv(database, { PORT: String(authPort) }), infra.runtime);
    await waitUntilReady(auth.url);
  };
  /**
   * Embedded PGlite serves one connection, which auth holds while it runs: the test reads and
   * changes the database with auth stopped, then starts it again on the same port.
   */
  const withAuthStopped = async <T>(work: Parameters<typeof withDatabase<T>>[1]): Promise<T> => {
    await auth.close();
    try {
      return await withDatabase(database, work);
    } finally {
      await startAuthService();
    }
  };

  const countUsers = () =>
    withAuthStopped(async (query) =>
      Number((await query<{ n: string }>('select count(*) as n from users'))[0]!.n),
    );

  /** Asks for a code and reads it from the outbox directory. */
  const mailedCode = async (email: string): Promise<string> => {
    const before = (await outboxMailsTo(outboxDir, email)).length;
    const sent = await call(auth.url, `/api/verification?email=${encodeURIComponent(email)}`, {
      headers: ownAddress(),
    });
    expect(sent.status).toBe(200);
    const mails = await eventually('the verification mail', async () => {
      const all = await outboxMailsTo(outboxDir, email);
      return all.length > before ? all : undefined;
    });
    return codeIn(mails[mails.length - 1]!);
  };

  const registration = (username: string, code: string, extra: Record<string, unknown> = {}) => ({
    username,
    email: emailOf(username),
    password: PASSWORD,
    verification_code: code,
    agree_to_terms: true,
    agree_to_data_processing: true,
    ...extra,
  });

  /** A registered user, signed in: its id and session cookie value. */
  const registeredUser = async (): Promise<{ id: number; username: string; session: string }> => {
    const username = newName();
    const code = await mailedCode(emailOf(username));
    const answer = await call(auth.url, '/api/user/register', { body: registration(username, code) });
    expect(answer.status).toBe(200);
    return { id: answer.body.data!['id'] as number, username, session: answer.session! };
  };

  const login = (username: string, password: string, headers: Record<string, string> = ownAddress()) =>
    call(auth.url, '/api/user/login', { body: { username, password }, headers });

  beforeAll(async () => {
    outboxDir = await mkdtemp(join(tmpdir(), 'tollgate-auth-outbox-'));
    infra = await openInfrastructure(kind, 'auth-accounts-it');
    await infra.runtime.bus.ensureTopics([TOPICS.identityUser, TOPICS.billingBalance]);
    userEvents = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.identityUser.name,
      `auth-acc.${infra.runId}`,
    );
    database = await infra.createDatabase();
    authPort = await freePort();
    await startAuthService();
    admin = await startRecordingAdmin();
    gateway = await startGateway({
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
      AUTH_URL: auth.url,
      BILLING_URL: admin.url,
      RELAY_URL: admin.url,
      CHAT_URL: admin.url,
      ADMIN_URL: admin.url,
      GATEWAY_SESSION_CACHE_MS: '1000',
    });
  });

  afterAll(async () => {
    await gateway?.close();
    await admin?.close();
    await auth?.close();
    await userEvents?.stop();
    await infra?.close();
    if (outboxDir) await rm(outboxDir, { recursive: true, force: true });
  });

  describe('registration', () => {
    it('registers with the mailed code: consents recorded, user published, signed in with an HttpOnly Lax cookie', async () => {
      const username = newName();
      const email = emailOf(username);
      const code = await mailedCode(email);

      const answer = await call(auth.url, '/api/user/register', {
        body: registration(username, code),
        headers: RU,
      });

      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        success: true,
        message: 'Вы успешно зарегистрировались',
        data: {
          id: expect.any(Number),
          username,
          display_name: username,
          role: Role.User,
          status: UserStatus.Enabled,
          group: 'default',
        },
      });
      const cookie = answer.setCookie[0]!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i);
      const rows = await withAuthStopped((query) =>
        query<{ email: string; terms: string | null; data: string | null; hash: string }>(
          'select email, terms_accepted_at as terms, data_processing_accepted_at as data, password_hash as hash from users where username = ?',
          [username],
        ),
      );
      expect(rows).toEqual([
        {
          email,
          terms: expect.any(String),
          data: expect.any(String),
          hash: expect.stringMatching(/^\$argon2id\$/),
        },
      ]);
      for (const consentedAt of [rows[0]!.terms!, rows[0]!.data!]) {
        expect(Math.abs(Date.parse(consentedAt) - Date.now())).toBeLessThan(60_000);
      }
      const id = answer.body.data!['id'] as number;
      const event = await eventually(
        'the user on identity.user',
        async () => userEvents.values<IdentityUser>((user) => user.id === id)[0],
      );
      expect(event).toMatchObject({ username, role: Role.User, group: 'default' });
      expect(JSON.stringify(userEvents.records)).not.toContain(PASSWORD);
    });

    it('marks the cookie Secure when the client came over https', async () => {
      const username = newName();
      const code = await mailedCode(emailOf(username));

      const answer = await call(auth.url, '/api/user/register', {
        body: registration(username, code),
        headers: { 'x-forwarded-proto': 'https' },
      });

      expect(answer.status).toBe(200);
      expect(answer.setCookie[0]).toMatch(/;\s*Secure/i);
    });

    it('refuses a second code for the same address within 60 seconds, in the caller’s language', async () => {
      const email = emailOf(newName());
      await mailedCode(email);

      const ru = await call(auth.url, `/api/verification?email=${email}`, {
        headers: { ...RU, ...ownAddress() },
      });
      const en = await call(auth.url, `/api/verification?email=${email}`, {
        headers: { ...EN, ...ownAddress() },
      });

      expect(ru.status).toBe(429);
      expect(ru.body).toEqual({
        success: false,
        message: expect.stringMatching(/^Код уже отправлен\. Повторно запросить код можно через \d+ с$/),
      });
      expect(en.status).toBe(429);
      expect(en.body.message).toMatch(/^A code has already been sent\. You can request a new one in \d+ s$/);
      const retryAfter = Number(en.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await outboxMailsTo(outboxDir, email)).toHaveLength(1);
    });

    it('refuses a wrong code and an expired one, creating no user', async () => {
      const username = newName();
      const email = emailOf(username);
      const code = await mailedCode(email);
      const wrong = code === '000000' ? '000001' : '000000';

      const refused = await call(auth.url, '/api/user/register', { body: registration(username, wrong) });
      // Expire the live code the way the store would after 10 minutes.
      const key = `auth:verification:code:${email}`;
      await infra.runtime.kv.set(key, (await infra.runtime.kv.get(key))!, 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const expired = await call(auth.url, '/api/user/register', { body: registration(username, code) });

      for (const answer of [refused, expired]) {
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ success: false, message: 'Неверный или просроченный код верификации' });
      }
      expect((await login(username, PASSWORD)).status).toBe(401);
    });

    it('refuses a taken username (whatever its case) and a taken address with 409', async () => {
      const taken = await registeredUser();
      const code = await mailedCode(emailOf(`${taken.username}x`));
      const sameName = await call(auth.url, '/api/user/register', {
        body: registration(taken.username.toUpperCase(), code, { email: emailOf(`${taken.username}x`) }),
      });
      const sameAddress = await call(auth.url, `/api/verification?email=${emailOf(taken.username)}`, {
        headers: { ...EN, ...ownAddress() },
      });

      expect(sameName.status).toBe(409);
      expect(sameName.body).toEqual({ success: false, message: 'Это имя пользователя уже занято' });
      expect(sameAddress.status).toBe(409);
      expect(sameAddress.body).toEqual({ success: false, message: 'This email is already registered' });
    });

    const validationCases: [string, Record<string, unknown>, string, string][] = [
      [
        'no username',
        { username: undefined },
        'Пожалуйста, введите имя пользователя, email, пароль и подтверждение пароля',
        'Please enter a username, email, password and password confirmation',
      ],
      [
        'an empty password',
        { password: '' },
        'Пожалуйста, введите имя пользователя, email, пароль и подтверждение пароля',
        'Please enter a username, email, password and password confirmation',
      ],
      [
        'a malformed email',
        { email: 'not-an-email' },
        'Пожалуйста, введите корректный email',
        'Please enter a valid email',
      ],
      [
        'a short password',
        { password: 'short7!' },
        'Пароль должен быть не менее 8 символов',
        'The password must be at least 8 characters long',
      ],
      [
        'a long password',
        { password: 'x'.repeat(23) },
        'Пароль должен быть не более 22 символов',
        'The password must be at most 22 characters long',
      ],
      [
        'no terms consent',
        { agree_to_terms: false },
        'Для завершения регистрации необходимо принять Оферту, Правила и Политику сервиса',
        'To complete registration, please accept the Offer, the Rules and the Policy of the service',
      ],
      [
        'no data-processing consent',
        { agree_to_data_processing: undefined },
        'Для завершения регистрации необходимо согласие на обработку персональных данных',
        'To complete registration, please consent to the processing of personal data',
      ],
      [
        'no verification code',
        { verification_code: '' },
        'Пожалуйста, введите код верификации',
        'Please enter the verification code',
      ],
      [
        'an invalid username',
        { username: '<b>x</b>' },
        'Имя пользователя: не более 20 символов — буквы, цифры, «_», «-» и «.»',
        'A username is at most 20 characters: letters, digits, "_", "-" and "."',
      ],
    ];

    it.each(validationCases)('answers %s with SPEC’s message in ru and en', async (_name, change, ru, en) => {
      const body = registration(newName(), '123456', change);

      const inRussian = await call(auth.url, '/api/user/register', { body, headers: RU });
      const byDefault = await call(auth.url, '/api/user/register', { body });
      const inEnglish = await call(auth.url, '/api/user/register', { body, headers: EN });

      expect(inRussian.status).toBe(400);
      expect(inRussian.body).toEqual({ success: false, message: ru });
      expect(byDefault.body.message).toBe(ru);
      expect(inEnglish.status).toBe(400);
      expect(inEnglish.body).toEqual({ success: false, message: en });
    });

    it('answers a code request without an address in ru and en', async () => {
      const ru = await call(auth.url, '/api/verification', { headers: ownAddress() });
      const en = await call(auth.url, '/api/verification?email=', { headers: { ...EN, ...ownAddress() } });

      expect(ru.status).toBe(400);
      expect(ru.body.message).toBe('Пожалуйста, введите email');
      expect(en.body.message).toBe('Please enter your email');
    });
  });

  describe('bad input never breaks a write', () => {
    const megabyte = 'a'.repeat(1_000_000);
    const badValues: [string, unknown][] = [
      ['missing', undefined],
      ['empty', ''],
      ['over-long', 'x'.repeat(300)],
      ['a number', 12345678],
      ['an object', { $ne: null }],
      ['an array', ['a', 'b']],
      ['null', null],
      ['an SQL fragment', "x'); drop table users; --"],
      ['HTML', '<script>alert(1)</script>'],
      ['control characters', 'ab\u0000\u0007cd\u001bef'],
      ['a 1 MB string', megabyte],
    ];
    const registerFields = ['username', 'email', 'password', 'verification_code', 'agree_to_terms'];
    const loginFields = ['username', 'password'];
    const cases = [
      ...registerFields.flatMap((field) =>
        badValues.map(([label, value]) => ['register', field, label, value] as const),
      ),
      ...loginFields.flatMap((field) =>
        badValues.map(([label, value]) => ['login', field, label, value] as const),
      ),
    ].filter(
      ([endpoint, field, label]) =>
        !(endpoint === 'login' && field === 'password' && label === 'control characters'),
    );

    beforeAll(async () => {
      usersBeforeBadInput = await countUsers();
    });

    // Register cases carry a live mailed code, so the bad field alone is what must stop them.
    it.each(cases)('%s with %s %s: a 4xx envelope', async (endpoint, field, _label, value) => {
      const username = newName();
      const base =
        endpoint === 'register'
          ? registration(username, await mailedCode(emailOf(username)))
          : { username, password: PASSWORD };
      const body = { ...base, [field]: value };

      const answer = await call(auth.url, `/api/user/${endpoint}`, { body, headers: ownAddress() });

      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    });

    it.each([
      ['not JSON', '{"username": '],
      ['a JSON string', '"root"'],
      ['a JSON array', '[1,2]'],
      ['null', 'null'],
    ])('register and login with a body that is %s: 4xx envelope', async (_label, rawBody) => {
      for (const endpoint of ['register', 'login']) {
        const answer = await call(auth.url, `/api/user/${endpoint}`, { rawBody, headers: ownAddress() });
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.body).toMatchObject({ success: false, message: expect.any(String) });
      }
    });
  });

  describe('after the bad inputs', () => {
    it('no partial user record was written', async () => {
      expect(await countUsers()).toBe(usersBeforeBadInput);
    });
  });

  describe('sessions', () => {
    it('logs in with the user’s fields and a new session id on every login; logout ends the session', async () => {
      const user = await registeredUser();

      const first = await login(user.username, PASSWORD);
      const second = await call(auth.url, '/api/user/login', {
        body: { username: emailOf(user.username), password: PASSWORD },
        headers: { ...ownAddress(), ...cookieHeader(first.session!) },
      });

      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        success: true,
        message: 'Вы успешно вошли в систему',
        data: {
          id: user.id,
          username: user.username,
          display_name: user.username,
          role: Role.User,
          status: UserStatus.Enabled,
          group: 'default',
        },
      });
      expect(second.status).toBe(200);
      expect(new Set([user.session, first.session, second.session]).size).toBe(3);
      // Signing in again with a cookie ends the session it named; another browser's lives on.
      expect((await resolveSession(first.session!)).status).toBe(401);
      expect((await resolveSession(user.session)).status).toBe(200);
      expect((await resolveSession(second.session!)).body.data).toMatchObject({
        userId: user.id,
        role: Role.User,
      });

      const out = await call(auth.url, '/api/user/logout', { headers: cookieHeader(second.session!) });
      expect(out.status).toBe(200);
      expect(out.body.message).toBe('Вы успешно вышли из системы');
      expect(out.setCookie[0]).toMatch(/Max-Age=0/);
      expect((await resolveSession(second.session!)).status).toBe(401);
    });

    it('refuses a wrong password and an unknown user alike with 401', async () => {
      const user = await registeredUser();

      const wrong = await login(user.username, 'wrong-password-1');
      const unknown = await call(auth.url, '/api/user/login', {
        body: { username: newName(), password: PASSWORD },
        headers: { ...EN, ...ownAddress() },
      });

      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ success: false, message: 'Неверное имя пользователя или пароль' });
      expect(unknown.body).toEqual({ success: false, message: 'Wrong username or password' });
      expect(wrong.session).toBeUndefined();
    });

    it('refuses a disabled user and ends the sessions it had', async () => {
      const user = await registeredUser();
      await withAuthStopped((query) =>
        query('update users set status = ? where id = ?', [UserStatus.Disabled, user.id]),
      );

      const refused = await login(user.username, PASSWORD);

      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ success: false, message: 'Пользователь заблокирован' });
      expect(refused.session).toBeUndefined();
      expect((await resolveSession(user.session)).status).toBe(401);
    });

    it('answers 429 with a clear message once a username has too many attempts', async () => {
      const user = await registeredUser();
      for (let n = 0; n < LOGIN_LIMIT_PER_USERNAME; n++) await login(user.username, 'wrong-password-1');

      const limited = await login(user.username, PASSWORD);
      const limitedEn = await call(auth.url, '/api/user/login', {
        body: { username: user.username, password: PASSWORD },
        headers: { ...EN, ...ownAddress() },
      });

      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/^Слишком много попыток входа\. Попробуйте снова через \d+ с$/);
      expect(limitedEn.body.message).toMatch(/^Too many sign-in attempts\. Try again in \d+ s$/);
      const retryAfter = Number(limitedEn.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limitedEn.body.message).toBe(`Too many sign-in attempts. Try again in ${retryAfter} s`);
      expect(limited.session).toBeUndefined();
    });

    it('answers 429 once one client address has too many attempts, whatever the usernames', async () => {
      const address = ownAddress();
      for (let n = 0; n < LOGIN_LIMIT_PER_IP; n++) await login(newName(), PASSWORD, address);

      const limited = await login(newName(), PASSWORD, address);

      expect(limited.status).toBe(429);
      expect(limited.body.success).toBe(false);
    });

    it('resolves sessions only for callers with the gateway’s service token', async () => {
      const user = await registeredUser();
      const identity = await signInternalToken({ userId: user.id, role: Role.Root, via: 'session' }, secret);

      const anonymous = await call(auth.url, SESSION_LOOKUP.path, { body: { session: user.session } });
      const withIdentityToken = await call(auth.url, SESSION_LOOKUP.path, {
        body: { session: user.session },
        headers: { 'x-tollgate-identity': identity, [SESSION_LOOKUP.header]: identity },
      });

      expect(anonymous.status).toBe(401);
      expect(anonymous.body.data).toBeUndefined();
      expect(withIdentityToken.status).toBe(401);
      expect((await resolveSession(user.session)).status).toBe(200);
    });
  });

  describe('through the gateway', () => {
    const self = (session: string, userId: number | string) =>
      call(gateway.url, '/api/user/self', {
        headers: { ...cookieHeader(session), 'new-api-user': String(userId) },
      });

    it('serves self for the session’s user, with the balance billing published (0 before)', async () => {
      const user = await registeredUser();
      // Ids restart with every test database, but the broker of the real infrastructure keeps
      // older runs' balances: a tombstone makes this id one billing has no balance for.
      await infra.runtime.bus.publish([
        { topic: TOPICS.billingBalance.name, key: String(user.id), value: null },
      ]);

      const before = await eventually('self without a balance', async () => {
        const answer = await self(user.session, user.id);
        return answer.body.data?.['quota'] === 0 ? answer : undefined;
      });
      expect(before.status).toBe(200);
      expect(before.body.data).toEqual({
        id: user.id,
        username: user.username,
        display_name: user.username,
        role: Role.User,
        status: UserStatus.Enabled,
        group: 'default',
        email: emailOf(user.username),
        quota: 0,
        used_quota: 0,
        request_count: 0,
        aff_code: null,
        aff_count: 0,
        aff_quota: 0,
        aff_history_quota: 0,
        inviter_id: null,
        setting: '',
        github_id: '',
        google_id: '',
        discord_id: '',
      });

      await infra.runtime.bus.publish([
        {
          topic: TOPICS.billingBalance.name,
          key: String(user.id),
          value: {
            v: 1,
            user_id: user.id,
            quota: 2_500_000,
            used_quota: 500,
            request_count: 3,
            aff_quota: 10,
            aff_history_quota: 20,
            version: 1,
            updated_at: Math.floor(Date.now() / 1000),
          },
        },
      ]);
      const after = await eventually('the balance in self', async () => {
        const answer = await self(user.session, user.id);
        return answer.body.data?.['quota'] === 2_500_000 ? answer : undefined;
      });
      expect(after.body.data).toMatchObject({
        used_quota: 500,
        request_count: 3,
        aff_quota: 10,
        aff_history_quota: 20,
      });
    });

    it('refuses a New-Api-User that is not the session’s user with 401, and a call without a session', async () => {
      const user = await registeredUser();

      const mismatch = await self(user.session, user.id + 1);
      const missing = await call(gateway.url, '/api/user/self', { headers: cookieHeader(user.session) });
      const anonymous = await call(gateway.url, '/api/user/self');

      for (const answer of [mismatch, missing, anonymous]) {
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ success: false, message: expect.any(String) });
      }
    });

    it('signs in through the gateway and stops the session within the cache time after logout', async () => {
      const user = await registeredUser();
      const signedIn = await call(gateway.url, '/api/user/login', {
        body: { username: user.username, password: PASSWORD },
      });
      expect(signedIn.status).toBe(200);
      expect((await self(signedIn.session!, user.id)).status).toBe(200);

      const out = await call(gateway.url, '/api/user/logout', {
        headers: { ...cookieHeader(signedIn.session!), 'new-api-user': String(user.id) },
      });

      expect(out.status).toBe(200);
      await eventually(
        'self to refuse the ended session',
        async () => ((await self(signedIn.session!, user.id)).status === 401 ? true : undefined),
        3_000,
      );
    });

    it('lets a stale cookie sign in again without New-Api-User', async () => {
      const user = await registeredUser();

      const again = await call(gateway.url, '/api/user/login', {
        body: { username: user.username, password: PASSWORD },
        headers: cookieHeader(user.session),
      });

      expect(again.status).toBe(200);
    });

    it('refuses an admin route to a user session with 403 and forwards the root’s with its identity', async () => {
      const user = await registeredUser();
      const root = await call(gateway.url, '/api/user/login', {
        body: { username: rootName, password: rootPassword },
      });
      expect(root.status).toBe(200);
      const rootId = root.body.data!['id'] as number;
      admin.seen.length = 0;

      const asUser = await call(gateway.url, '/api/channel/', {
        headers: { ...cookieHeader(user.session), 'new-api-user': String(user.id) },
      });
      const asRoot = await call(gateway.url, '/api/option/', {
        headers: { ...cookieHeader(root.session!), 'new-api-user': String(rootId) },
      });

      expect(asUser.status).toBe(403);
      expect(asUser.body).toEqual({ success: false, message: expect.any(String) });
      expect(asRoot.status).toBe(200);
      expect(admin.seen).toHaveLength(1);
      expect(admin.seen[0]!['x-tollgate-identity']).toEqual(expect.any(String));
    });
  });

  /** Asks auth about a session as the gateway does, with a service token for the look-up's audience. */
  const resolveSession = async (session: string): Promise<Answer> => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(SESSION_LOOKUP.issuer)
      .setAudience(SESSION_LOOKUP.audience)
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(Buffer.from(secret, 'utf8'));
    return call(auth.url, SESSION_LOOKUP.path, {
      body: { session },
      headers: { [SESSION_LOOKUP.header]: token },
    });
  };
});
