import { randomBytes } from 'node:crypto';
import { Role, selfUserSchema, UserStatus } from '@tollgate/contracts';
import { eventually } from '@tollgate/testing';
import { Browser, callJson, type Answer } from './support/accounts-browser';
import {
  LOGIN_LIMIT_PER_USERNAME,
  startAccountsPlatform,
  type AccountsPlatform,
} from './support/accounts-platform';

// Generous for the hooks: starting the processes takes a minute when the machine is busy.
jest.setTimeout(180_000);

const PASSWORD = 'correct-horse-9';
/** How long the gateway may keep trusting a session it looked up (GATEWAY_SESSION_CACHE_MS, at most 2 s). */
const SESSION_CACHE_GRACE_MS = 3_000;

interface Person {
  browser: Browser;
  id: number;
  username: string;
  email: string;
}

/**
 * Registration, sessions, personal access tokens and password reset through the gateway, with auth
 * as its own process on real PostgreSQL, Redis and Kafka and mail written to an outbox directory.
 */
describe('accounts through the gateway: registration, sessions, access tokens, reset', () => {
  let tollgate: AccountsPlatform;

  beforeAll(async () => {
    tollgate = await startAccountsPlatform({ name: 'sessions', skip: ['billing', 'relay', 'chat', 'admin'] });
  });
  afterAll(async () => {
    await tollgate?.stop();
  });

  const newName = () => `u${randomBytes(5).toString('hex')}`;
  const browser = () => new Browser(tollgate.url);

  /** Asks for a code as the registration page does and reads it from the mail. */
  async function mailedCode(client: Browser, email: string): Promise<string> {
    const before = await tollgate.mailCount(email);
    const sent = await client.call(`/api/verification?email=${encodeURIComponent(email)}`);
    expect(sent).toMatchObject({ status: 200, body: { success: true } });
    return tollgate.mailedCode(email, before);
  }

  const registration = (username: string, email: string, code: string) => ({
    username,
    email,
    password: PASSWORD,
    verification_code: code,
    agree_to_terms: true,
    agree_to_data_processing: true,
  });

  /** A person who registered with a mailed code in their own browser, and is signed in there. */
  async function registeredPerson(extra: Record<string, unknown> = {}): Promise<Person> {
    const client = browser();
    const username = newName();
    const email = `${username}@example.com`;
    const code = await mailedCode(client, email);
    const answer = await client.call('/api/user/register', {
      body: { ...registration(username, email, code), ...extra },
    });
    expect(answer.status).toBe(200);
    client.userId = (answer.body.data as { id: number }).id;
    return { browser: client, id: client.userId, username, email };
  }

  const selfOf = (client: Browser) => client.call('/api/user/self');
  const refusedWithin = (what: string, probe: () => Promise<Answer>) =>
    eventually(what, async () => ((await probe()).status === 401 ? true : undefined), SESSION_CACHE_GRACE_MS);

  it('registers with the mailed code, refusing a second code within 60 s and a wrong code', async () => {
    const client = browser();
    const username = newName();
    const email = `${username}@example.com`;
    const code = await mailedCode(client, email);

    const again = await client.call(`/api/verification?email=${encodeURIComponent(email)}`);
    const wrongCode = await client.call('/api/user/register', {
      body: registration(username, email, code === '000000' ? '000001' : '000000'),
    });
    const registered = await client.call('/api/user/register', {
      body: registration(username, email, code),
    });

    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^A code has already been sent\. You can request a new one in \d+ s$/);
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await tollgate.mailCount(email)).toBe(1);
    expect(wrongCode).toMatchObject({ status: 400, body: { success: false } });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({
      success: true,
      message: 'You have registered',
      data: {
        id: expect.any(Number),
        username,
        display_name: username,
        role: Role.User,
        status: UserStatus.Enabled,
        group: 'default',
      },
    });
    // Registering signs the browser in.
    expect(client.cookie('tollgate_session')).toBeDefined();
    client.userId = (registered.body.data as { id: number }).id;
    expect((await selfOf(client)).body.data).toMatchObject({ username, email });
  });

  it('signs in with an HttpOnly cookie and a new session id each time, ending the browser’s previous session', async () => {
    const person = await registeredPerson();
    const client = browser();

    const first = await client.signIn(person.username, PASSWORD);
    const firstSession = client.cookie('tollgate_session')!;
    const stale = new Browser(tollgate.url);
    await stale.call('/api/user/login', { body: { username: person.username, password: PASSWORD } });
    stale.userId = person.id;
    const second = await client.signIn(person.username, PASSWORD);
    const secondSession = client.cookie('tollgate_session')!;

    for (const answer of [first, second]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        success: true,
        message: 'You have signed in',
        data: {
          id: person.id,
          username: person.username,
          display_name: person.username,
          role: Role.User,
          status: UserStatus.Enabled,
          group: 'default',
        },
      });
    }
    const cookie = client.setCookies.at(-1)!;
    expect(cookie).toMatch(/^tollgate_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(new Set([person.browser.cookie('tollgate_session'), firstSession, secondSession]).size).toBe(3);
    expect((await selfOf(client)).status).toBe(200);
    // Another browser's session lives on; the replaced one of this browser does not.
    expect((await selfOf(stale)).status).toBe(200);
    const replaced = new Browser(tollgate.url);
    replaced.userId = person.id;
    await expect(
      refusedWithin('the replaced session to be refused', () =>
        replaced.call('/api/user/self', { headers: { cookie: `tollgate_session=${firstSession}` } }),
      ),
    ).resolves.toBe(true);
  });

  it('refuses a signed-in call without New-Api-User, or naming another user, with 401', async () => {
    const person = await registeredPerson();

    const missing = await person.browser.call('/api/user/self', { newApiUser: null });
    const wrong = await person.browser.call('/api/user/self', { newApiUser: String(person.id + 1) });
    const anonymous = await browser().call('/api/user/self');

    expect(missing).toMatchObject({ status: 401, body: { success: false } });
    expect(wrong).toMatchObject({ status: 401, body: { success: false } });
    expect(wrong.body.message).toMatch(/New-Api-User/);
    expect(anonymous).toMatchObject({ status: 401, body: { success: false } });
    expect((await selfOf(person.browser)).status).toBe(200);
  });

  it('answers /api/user/self with the new-api fields', async () => {
    const person = await registeredPerson();

    const self = await selfOf(person.browser);

    expect(self.status).toBe(200);
    // Exactly the contract's fields, with a new account's values.
    expect(selfUserSchema.strict().parse(self.body.data)).toEqual({
      id: person.id,
      username: person.username,
      display_name: person.username,
      role: Role.User,
      status: UserStatus.Enabled,
      email: person.email,
      group: 'default',
      quota: 0,
      used_quota: 0,
      request_count: 0,
      aff_code: null,
      aff_count: 0,
      aff_quota: 0,
      aff_history_quota: 0,
      inviter_id: null,
      setting: expect.any(String),
      github_id: '',
      google_id: '',
      discord_id: '',
    });
  });

  it('ends the session on logout: the cookie is cleared and the old one is refused', async () => {
    const person = await registeredPerson();
    const session = person.browser.cookie('tollgate_session')!;

    const out = await person.browser.call('/api/user/logout');

    expect(out).toMatchObject({ status: 200, body: { success: true, message: 'You have signed out' } });
    expect(person.browser.setCookies.at(-1)).toMatch(/^tollgate_session=;.*Max-Age=0/i);
    expect(person.browser.cookie('tollgate_session')).toBeUndefined();
    const replay = new Browser(tollgate.url);
    replay.userId = person.id;
    await expect(
      refusedWithin('the ended session to be refused', () =>
        replay.call('/api/user/self', { headers: { cookie: `tollgate_session=${session}` } }),
      ),
    ).resolves.toBe(true);
  });

  it('limits sign-in attempts per username with 429 and Retry-After, whatever the address', async () => {
    const person = await registeredPerson();
    const attempts: Answer[] = [];

    // Each attempt from another address: the per-username limit holds on its own.
    for (let i = 0; i < LOGIN_LIMIT_PER_USERNAME; i += 1) {
      attempts.push(await browser().signIn(person.username, `wrong-password-${i}`));
    }
    const limited = await browser().signIn(person.username, PASSWORD);

    expect(attempts.map((a) => a.status)).toEqual(Array(LOGIN_LIMIT_PER_USERNAME).fill(401));
    expect(attempts[0]!.body.message).toBe('Wrong username or password');
    expect(limited.status).toBe(429);
    const retryAfter = limited.headers.get('retry-after');
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      success: false,
      message: `Too many sign-in attempts. Try again in ${retryAfter} s`,
    });
  });

  it('serves a script with a personal access token and New-Api-User, ending the previous token on reissue', async () => {
    const person = await registeredPerson();
    const script = (token: string, headers: Record<string, string> = {}) =>
      callJson(tollgate.url, '/api/user/self', person.browser.address, {
        headers: { authorization: token, 'new-api-user': String(person.id), ...headers },
      });

    const issued = await person.browser.call('/api/user/token');
    const token = issued.body.data as string;
    const plain = await script(token);
    const bearer = await script(`Bearer ${token}`);
    const noUserHeader = await callJson(tollgate.url, '/api/user/self', person.browser.address, {
      headers: { authorization: token },
    });
    const wrongUser = await script(token, { 'new-api-user': String(person.id + 1) });
    const forged = await script(`${token}x`);

    expect(issued.status).toBe(200);
    expect(token).toEqual(expect.any(String));
    expect(token.length).toBeGreaterThanOrEqual(16);
    for (const answer of [plain, bearer]) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ id: person.id, username: person.username });
    }
    expect(noUserHeader.status).toBe(401);
    expect(wrongUser.status).toBe(401);
    expect(forged.status).toBe(401);

    const reissued = (await person.browser.call('/api/user/token')).body.data as string;
    expect(reissued).not.toBe(token);
    expect((await script(reissued)).status).toBe(200);
    await expect(refusedWithin('the previous access token to be refused', () => script(token))).resolves.toBe(
      true,
    );
  });

  it('records the inviter of a person who registers with an invite code', async () => {
    const inviter = await registeredPerson();
    const invite = await inviter.browser.call('/api/user/aff');
    const code = invite.body.data as string;

    const invited = await registeredPerson({ aff_code: code });

    expect(invite.status).toBe(200);
    expect(code).toMatch(/^\S{8}$/);
    expect((await inviter.browser.call('/api/user/aff')).body.data).toBe(code);
    expect((await selfOf(invited.browser)).body.data).toMatchObject({ inviter_id: inviter.id });
    expect((await selfOf(inviter.browser)).body.data).toMatchObject({ aff_code: code, aff_count: 1 });
  });

  it('resets a forgotten password with the mailed code, answering alike for an unknown address', async () => {
    const person = await registeredPerson();
    const client = browser();
    const newPassword = 'battery-staple-7';

    const before = await tollgate.mailCount(person.email);
    const asked = await client.call(`/api/reset_password?email=${encodeURIComponent(person.email)}`);
    const unknown = await client.call(
      `/api/reset_password?email=${encodeURIComponent(`${newName()}@example.com`)}`,
    );
    const code = await tollgate.mailedCode(person.email, before);
    const wrongCode = await client.call('/api/user/reset', {
      body: { email: person.email, token: code === '000000' ? '000001' : '000000', password: newPassword },
    });
    const reset = await client.call('/api/user/reset', {
      body: { email: person.email, token: code, password: newPassword },
    });
    const reused = await client.call('/api/user/reset', {
      body: { email: person.email, token: code, password: 'another-pass-8' },
    });

    expect(asked).toMatchObject({ status: 200, body: { success: true } });
    expect(unknown.status).toBe(asked.status);
    expect(unknown.body).toEqual(asked.body);
    expect(wrongCode).toMatchObject({ status: 400, body: { success: false } });
    expect(reset).toMatchObject({ status: 200, body: { success: true } });
    expect(reused).toMatchObject({ status: 400, body: { success: false } });
    expect((await browser().signIn(person.username, PASSWORD)).status).toBe(401);
    const signedIn = browser();
    expect((await signedIn.signIn(person.username, newPassword)).status).toBe(200);
    expect((await selfOf(signedIn)).body.data).toMatchObject({ id: person.id });
  });
});
