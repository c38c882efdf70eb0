import { randomBytes, randomInt } from 'node:crypto';
import {
  OAUTH_PROVIDERS,
  Role,
  UserStatus,
  type AdminUserView,
  type AuditEntryView,
  type OAuthProvider,
  type Page,
} from '@tollgate/contracts';
import { eventually, FakeOAuthProvider, type FakeOAuthAccount } from '@tollgate/testing';
import { Browser, type Answer } from './support/accounts-browser';
import { startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

// Generous for the hooks: starting the processes takes a minute when the machine is busy.
jest.setTimeout(180_000);

const CLIENT = {
  clientId: `tollgate-e2e-${randomBytes(3).toString('hex')}`,
  clientSecret: randomBytes(16).toString('hex'),
};
const CONSENTS = 'agree_to_terms=true&agree_to_data_processing=true';
const PASSWORD = 'correct-horse-9';
/** How long the gateway may keep trusting a session it looked up (GATEWAY_SESSION_CACHE_MS, at most 2 s). */
const SESSION_CACHE_GRACE_MS = 3_000;

/** Every provider pointed at the fake; auth and admin both read these (admin for /api/status). */
function oauthEnv(provider: FakeOAuthProvider, gatewayUrl: string): Record<string, string> {
  const env: Record<string, string> = { OAUTH_REDIRECT_BASE_URL: gatewayUrl };
  for (const name of OAUTH_PROVIDERS) {
    const prefix = name.toUpperCase();
    const endpoints = provider.endpoints(name);
    env[`${prefix}_CLIENT_ID`] = CLIENT.clientId;
    env[`${prefix}_CLIENT_SECRET`] = CLIENT.clientSecret;
    env[`${prefix}_AUTHORIZE_URL`] = endpoints.authorizeUrl;
    env[`${prefix}_TOKEN_URL`] = endpoints.tokenUrl;
    env[`${prefix}_PROFILE_URL`] = endpoints.profileUrl;
  }
  return env;
}

/**
 * OAuth sign-in with GitHub, Google and Discord (a fake provider) and user administration by root,
 * through the gateway, with auth, billing and admin as their own processes on real PostgreSQL,
 * Redis and Kafka: a quota set by root travels auth → billing ledger → billing.balance → auth.
 */
describe('accounts through the gateway: OAuth sign-in and user admin', () => {
  const oauth = new FakeOAuthProvider(CLIENT);
  let tollgate: AccountsPlatform;
  let root: Browser;

  beforeAll(async () => {
    await oauth.start();
    tollgate = await startAccountsPlatform({
      name: 'admin',
      skip: ['relay', 'chat'],
      env: (gatewayUrl) => oauthEnv(oauth, gatewayUrl),
    });
    root = new Browser(tollgate.url);
    expect((await root.signIn(tollgate.root.username, tollgate.root.password)).status).toBe(200);
  });
  afterAll(async () => {
    await tollgate?.stop();
    await oauth.close();
  });

  const newName = () => `u${randomBytes(5).toString('hex')}`;
  const anAccount = (): FakeOAuthAccount => ({
    id: String(randomInt(1_000_000_000, 2_000_000_000)),
    name: 'Ada Lovelace',
  });
  const refusedWithin = (what: string, probe: () => Promise<Answer>) =>
    eventually(what, async () => ((await probe()).status === 401 ? true : undefined), SESSION_CACHE_GRACE_MS);

  /**
   * What the sign-in page does: a state bound to the browser, the provider's authorize page (the
   * person is signed in there as `account`), and back on /oauth/<provider>, the code handed to the API.
   */
  async function signInWith(
    provider: OAuthProvider,
    account: FakeOAuthAccount,
    client: Browser,
  ): Promise<Answer> {
    const status = (await client.call('/api/status')).body.data as Record<string, string>;
    const state = await client.call(`/api/oauth/state?${CONSENTS}`);
    expect(state.status).toBe(200);
    oauth.signInAs(provider, account);
    const authorize = new URL(oauth.endpoints(provider).authorizeUrl);
    authorize.search = new URLSearchParams({
      client_id: status[`${provider}_client_id`]!,
      redirect_uri: `${tollgate.url}/oauth/${provider}`,
      state: state.body.data as string,
      response_type: 'code',
    }).toString();
    const redirect = await fetch(authorize, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const back = new URL(redirect.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${tollgate.url}/oauth/${provider}`);
    const answer = await client.call(`/api/oauth/${provider}${back.search}`);
    if (answer.status === 200) client.userId = (answer.body.data as { id: number }).id;
    return answer;
  }

  it('reports the three providers enabled in /api/status, with their client ids', async () => {
    const status = await new Browser(tollgate.url).call('/api/status');

    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({
      github_oauth: true,
      google_oauth: true,
      discord_oauth: true,
      github_client_id: CLIENT.clientId,
      google_client_id: CLIENT.clientId,
      discord_client_id: CLIENT.clientId,
    });
  });

  it.each(OAUTH_PROVIDERS)(
    '%s: registers a new person, then signs the same account in again',
    async (provider) => {
      const account = anAccount();
      const first = new Browser(tollgate.url);
      const second = new Browser(tollgate.url);

      const registered = await signInWith(provider, account, first);
      const again = await signInWith(provider, account, second);

      expect(registered).toMatchObject({
        status: 200,
        body: {
          success: true,
          data: {
            username: expect.stringMatching(new RegExp(`^${provider}_[0-9a-f]{8}$`)),
            display_name: account.name,
            role: Role.User,
            status: UserStatus.Enabled,
          },
        },
      });
      expect(first.cookie('tollgate_session')).toBeDefined();
      expect(again.status).toBe(200);
      expect(second.userId).toBe(first.userId);
      expect(second.cookie('tollgate_session')).not.toBe(first.cookie('tollgate_session'));
      for (const client of [first, second]) {
        const self = await client.call('/api/user/self');
        expect(self.status).toBe(200);
        expect(self.body.data).toMatchObject({ id: first.userId, [`${provider}_id`]: account.id });
      }
    },
  );

  it('refuses an OAuth return whose state was issued to another browser, before any code exchange', async () => {
    const issuer = new Browser(tollgate.url);
    const state = (await issuer.call(`/api/oauth/state?${CONSENTS}`)).body.data as string;
    const exchanges = oauth.tokenRequests.length;
    const code = oauth.issueCode('github', anAccount(), `${tollgate.url}/oauth/github`);

    const stolen = await new Browser(tollgate.url).call(`/api/oauth/github?code=${code}&state=${state}`);

    expect(stolen).toMatchObject({ status: 400, body: { success: false } });
    expect(oauth.tokenRequests.length).toBe(exchanges);
  });

  describe('user admin by root', () => {
    /** A user root creates, signed in in their own browser. */
    async function aUser(): Promise<{ browser: Browser; id: number; username: string }> {
      const username = newName();
      const created = await root.call('/api/user/', {
        body: { username, password: PASSWORD, display_name: 'Made By Root' },
      });
      expect(created.status).toBe(200);
      const browser = new Browser(tollgate.url);
      expect((await browser.signIn(username, PASSWORD)).status).toBe(200);
      return { browser, id: (created.body.data as AdminUserView).id, username };
    }

    it('lists users newest first and finds one by part of the name', async () => {
      const user = await aUser();

      const page = await root.call('/api/user/?p=1');
      const found = await root.call(`/api/user/search?keyword=${user.username.slice(1, 8)}`);
      const one = await root.call(`/api/user/${user.id}`);

      expect(page.status).toBe(200);
      const listed = page.body.data as Page<AdminUserView>;
      expect(listed).toMatchObject({ page: 1, page_size: 10 });
      expect(listed.items[0]).toMatchObject({ id: user.id, username: user.username });
      expect((found.body.data as Page<AdminUserView>).items.map((u) => u.id)).toEqual([user.id]);
      expect(one.body.data).toMatchObject({
        id: user.id,
        username: user.username,
        display_name: 'Made By Root',
        role: Role.User,
        status: UserStatus.Enabled,
      });
    });

    it('refuses the admin calls to an ordinary user', async () => {
      const user = await aUser();

      const list = await user.browser.call('/api/user/?p=1');
      const manage = await user.browser.call('/api/user/manage', {
        body: { id: user.id, action: 'disable' },
      });

      expect(list.status).toBe(403);
      expect(manage.status).toBe(403);
    });

    it('disables a user: the session stops and sign-in is refused, until enabled again', async () => {
      const user = await aUser();

      const disabled = await root.call('/api/user/manage', { body: { id: user.id, action: 'disable' } });

      expect(disabled.status).toBe(200);
      expect(disabled.body.data).toMatchObject({ id: user.id, status: UserStatus.Disabled });
      await expect(
        refusedWithin('the disabled user’s session to be refused', () => user.browser.call('/api/user/self')),
      ).resolves.toBe(true);
      const refused = await new Browser(tollgate.url).signIn(user.username, PASSWORD);
      expect(refused).toMatchObject({ status: 403, body: { message: 'This account is disabled' } });

      await root.call('/api/user/manage', { body: { id: user.id, action: 'enable' } });
      const again = new Browser(tollgate.url);
      expect((await again.signIn(user.username, PASSWORD)).status).toBe(200);
      expect((await again.call('/api/user/self')).status).toBe(200);
    });

    it('sets a quota that the user’s /api/user/self shows within a few seconds, through billing', async () => {
      const user = await aUser();
      const quota = randomInt(1_000_000, 9_000_000);

      const updated = await root.call('/api/user/', { method: 'PUT', body: { id: user.id, quota } });
      const setAt = Date.now();

      expect(updated).toMatchObject({ status: 200, body: { success: true } });
      const self = await eventually(
        'the new quota in the user’s self',
        async () => {
          const answer = await user.browser.call('/api/user/self');
          return (answer.body.data as { quota: number }).quota === quota ? answer : undefined;
        },
        10_000,
      );
      expect(Date.now() - setAt).toBeLessThan(5_000);
      expect(self.body.data).toMatchObject({ id: user.id, quota });
      expect((await root.call(`/api/user/${user.id}`)).body.data).toMatchObject({ quota });
    });

    it("keeps root's actions in every service in one audit trail, never a password or a key", async () => {
      const user = await aUser();
      const password = `new-${randomBytes(6).toString('hex')}`;
      const channelKey = `sk-e2e-${randomBytes(12).toString('hex')}`;
      const code = `AUDIT${randomBytes(3).toString('hex').toUpperCase()}`;

      const changes = [
        await root.call('/api/user/', {
          method: 'PUT',
          body: { id: user.id, display_name: 'Audited', password, quota: 777_000, quota_reason: 'goodwill' },
        }),
        await root.call('/api/user/manage', { body: { id: user.id, action: 'disable' } }),
        await root.call('/api/promo/', { body: { code, type: 'percent', value: '10' } }),
        await root.call('/api/channel/', {
          body: {
            type: 1,
            name: 'audited',
            key: channelKey,
            base_url: 'https://upstream.test/',
            models: 'gpt-4o',
          },
        }),
      ];
      expect(changes.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);

      const trail = await eventually(
        'the user, balance, promo and channel entries in the audit trail',
        async () => {
          const answer = await root.call(`/api/audit?actor_id=${root.userId}&page_size=100`);
          const items = (answer.body.data as Page<AuditEntryView>).items;
          const mine = items.filter(
            (entry) =>
              (entry.target_kind === 'user' && entry.target_id === String(user.id)) ||
              (entry.target_kind === 'promo' && (entry.after as { code?: string } | null)?.code === code) ||
              (entry.target_kind === 'channel' &&
                (entry.after as { name?: string } | null)?.name === 'audited'),
          );
          return mine.length >= 6 ? mine : undefined;
        },
        15_000,
      );

      const byAction = Object.fromEntries(trail.map((entry) => [entry.action, entry]));
      expect(Object.keys(byAction).sort()).toEqual(
        [
          'balance.set',
          'channel.create',
          'promo.create',
          'user.create',
          'user.disable',
          'user.update',
        ].sort(),
      );
      expect(byAction['balance.set']).toMatchObject({
        service: 'billing',
        after: { quota: 777_000, reason: 'goodwill' },
      });
      expect(byAction['user.update']).toMatchObject({
        service: 'auth',
        before: { display_name: 'Made By Root' },
        after: { display_name: 'Audited' },
      });
      expect(byAction['user.update']!.changed).toEqual(expect.arrayContaining(['display_name', 'password']));
      expect(byAction['user.disable']).toMatchObject({
        before: { status: UserStatus.Enabled },
        after: { status: UserStatus.Disabled },
      });
      expect(byAction['promo.create']).toMatchObject({ service: 'billing', after: { code } });
      expect(trail.every((entry) => entry.actor_role === Role.Root && entry.request_id)).toBe(true);
      const everything = JSON.stringify(trail);
      expect(everything).not.toContain(password);
      expect(everything).not.toContain(channelKey);
      expect(everything).not.toMatch(/\$argon2/);
      const other = await aUser();
      expect((await other.browser.call('/api/audit')).status).toBe(403);
    });
  });
});
