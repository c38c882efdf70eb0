import { randomBytes } from 'node:crypto';
import {
  OAUTH_PROVIDERS,
  SETTING_KEYS,
  TOPICS,
  type IdentityUser,
  type OAuthProvider,
} from '@tollgate/contracts';
import { eventually, FakeOAuthProvider, INFRASTRUCTURES, type FakeOAuthAccount } from '@tollgate/testing';
import { AccountsHarness, EN, RU, type SignedInUser } from './accounts-harness';
import type { Answer } from './auth-client';

jest.setTimeout(120_000);

const CLIENT = { clientId: 'tollgate-test-client', clientSecret: randomBytes(16).toString('hex') };
const CONSENTS = 'agree_to_terms=true&agree_to_data_processing=true';

describe.each(INFRASTRUCTURES)('OAuth sign-in on %s infrastructure', (kind) => {
  const provider = new FakeOAuthProvider(CLIENT);
  const h = new AccountsHarness(kind, 'auth-oauth-it', {
    record: [TOPICS.identityUser],
    authEnv: async () => {
      await provider.start();
      return provider.serviceEnv('http://tollgate.test');
    },
  });

  beforeAll(() => h.start());
  afterAll(async () => {
    await h.stop();
    await provider.close();
  });

  const anAccount = (): FakeOAuthAccount => ({
    id: String(Date.now() + Math.floor(Math.random() * 1e6)),
    name: 'Ada Lovelace',
  });

  /** The browser's part: a state with its cookie, then the provider's redirect through the fake's authorize page. */
  const returnFrom = async (
    name: OAuthProvider,
    account: FakeOAuthAccount,
    options: { stateQuery?: string; headers?: Record<string, string>; as?: SignedInUser } = {},
  ): Promise<Answer> => {
    const state = await h.anonymous(`/api/oauth/state?${options.stateQuery ?? CONSENTS}`);
    const nonceCookie = state.setCookie
      .find((cookie) => cookie.startsWith('tollgate_oauth='))!
      .split(';')[0]!;
    provider.signInAs(name, account);
    const authorize = new URL(provider.endpoints(name).authorizeUrl);
    authorize.search = new URLSearchParams({
      client_id: CLIENT.clientId,
      redirect_uri: `http://tollgate.test/oauth/${name}`,
      state: state.body.data as unknown as string,
      response_type: 'code',
    }).toString();
    const redirect = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(redirect.headers.get('location')!);
    const path = `/api/oauth/${name}?code=${back.searchParams.get('code')}&state=${back.searchParams.get('state')}`;
    const headers = { ...options.headers, cookie: nonceCookie };
    if (options.as) {
      return options.as.call(path, {
        headers: { ...headers, cookie: `${nonceCookie}; tollgate_session=${options.as.session}` },
      });
    }
    return h.anonymous(path, { headers });
  };

  it.each(OAUTH_PROVIDERS)(
    '%s: registers with the consents, then signs the same account in again',
    async (name) => {
      const account = anAccount();

      const registered = await returnFrom(name, account, { headers: RU });
      const again = await returnFrom(name, account);

      expect(registered.status).toBe(200);
      expect(registered.body).toMatchObject({
        success: true,
        message: 'Вы успешно вошли в систему',
        data: {
          username: expect.stringMatching(new RegExp(`^${name}_[0-9a-f]{8}$`)),
          display_name: 'Ada Lovelace',
          role: 1,
        },
      });
      expect(registered.session).toBeDefined();
      expect(again.body.data?.['id']).toBe(registered.body.data?.['id']);
      const user = h.asUser(registered.body.data!['id'] as number, '', '', again.session!);
      expect((await user.call('/api/user/self')).body.data).toMatchObject({
        [`${name}_id`]: account.id,
        email: null,
      });
      expect(provider.tokenRequests.at(-1)!.params.get('redirect_uri')).toBe(
        `http://tollgate.test/oauth/${name}`,
      );
    },
  );

  it('refuses a registration without the consents, naming them', async () => {
    const refused = await returnFrom('github', anAccount(), { stateQuery: '', headers: RU });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('Для регистрации через OAuth необходимо принять') },
    });
  });

  it('refuses a state used twice, from another browser, or unknown, before any code exchange', async () => {
    const state = await h.anonymous('/api/oauth/state');
    const cookie = state.setCookie.find((c) => c.startsWith('tollgate_oauth='))!.split(';')[0]!;
    const code = () => provider.issueCode('google', anAccount());
    const exchanges = provider.tokenRequests.length;

    const otherBrowser = await h.anonymous(`/api/oauth/google?code=${code()}&state=${state.body.data}`, {
      headers: EN,
    });
    const reused = await h.anonymous(`/api/oauth/google?code=${code()}&state=${state.body.data}`, {
      headers: { cookie },
    });
    const unknown = await h.anonymous(`/api/oauth/google?code=${code()}&state=made-up`, {
      headers: { cookie },
    });

    expect(otherBrowser).toMatchObject({
      status: 400,
      body: { message: 'Google OAuth state not found or expired. Please sign in again' },
    });
    expect(reused.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(provider.tokenRequests.length).toBe(exchanges);
  });

  it('answers a code the provider refuses with 400 in the caller’s language', async () => {
    const state = await h.anonymous(`/api/oauth/state?${CONSENTS}`);
    const cookie = state.setCookie.find((c) => c.startsWith('tollgate_oauth='))!.split(';')[0]!;

    const refused = await h.anonymous(`/api/oauth/discord?code=forged&state=${state.body.data}`, {
      headers: { cookie, ...EN },
    });

    expect(refused).toMatchObject({
      status: 400,
      body: { message: 'Signing in with Discord failed. Please try again' },
    });
  });

  it('links a provider to the signed-in user, refuses an account linked elsewhere, and unlinks', async () => {
    const user = await h.signedInUser();
    const account = anAccount();
    const taken = anAccount();
    await returnFrom('google', taken);

    const linked = await returnFrom('github', account, { as: user });
    const elsewhere = await returnFrom('google', taken, { as: user, headers: EN });

    expect(linked.status).toBe(200);
    expect(linked.session).toBeUndefined();
    expect((await user.call('/api/user/self')).body.data).toMatchObject({ github_id: account.id });
    expect(elsewhere).toMatchObject({
      status: 409,
      body: { message: 'This Google account is already linked to another user' },
    });

    const unlinked = await user.call('/api/user/oauth/github', { method: 'DELETE', headers: EN });
    expect(unlinked).toMatchObject({ status: 200, body: { message: 'The GitHub account is unlinked' } });
    expect((await user.call('/api/user/self')).body.data).toMatchObject({ github_id: '' });
    const signedInAgain = await returnFrom('github', account, { stateQuery: '' });
    expect(signedInAgain.status).toBe(400); // no longer linked: a registration, which needs the consents
  });

  it('keeps the only way to sign in of an OAuth-only account, and records an invite', async () => {
    const inviter = await h.signedInUser();
    const code = (await inviter.call('/api/user/aff')).body.data as unknown as string;
    const registered = await returnFrom('discord', anAccount(), { stateQuery: `${CONSENTS}&aff=${code}` });
    const user = h.asUser(registered.body.data!['id'] as number, '', '', registered.session!);

    const refused = await user.call('/api/user/oauth/discord', { method: 'DELETE', headers: EN });

    expect(refused).toMatchObject({
      status: 400,
      body: { message: 'This is your only way to sign in: set a password before unlinking it' },
    });
    expect((await user.call('/api/user/self')).body.data).toMatchObject({ inviter_id: inviter.id });
    await eventually(
      'the OAuth user with its inviter on identity.user',
      async () =>
        h
          .recorder(TOPICS.identityUser)
          .values<IdentityUser>((u) => u.id === user.id && u.inviter_id === inviter.id)[0],
    );
  });

  it('follows the operator: a provider switched off refuses sign-in, and the client id set in the admin area is the one used', async () => {
    const setOption = (key: string, value: string) =>
      h.infra.runtime.bus.publish([
        {
          topic: TOPICS.catalogOption.name,
          key,
          value: { v: 1, key, value, updated_at: Math.floor(Date.now() / 1000) },
        },
      ]);
    const account = anAccount();

    await setOption(SETTING_KEYS.githubOAuthEnabled, 'false');
    const off = await eventually('GitHub to be switched off', async () => {
      const answer = await returnFrom('github', account, { headers: EN });
      return answer.status === 403 ? answer : undefined;
    });
    expect(off.body.message).toBe('GitHub OAuth is not configured');
    expect((await returnFrom('google', anAccount())).status).toBe(200);

    await setOption(SETTING_KEYS.githubOAuthEnabled, 'true');
    await setOption(SETTING_KEYS.githubClientId, 'an-id-the-provider-does-not-know');
    // The provider refuses the exchange of a code for another client: the operator's id was used.
    await eventually('the operator’s client id to be used', async () =>
      (await returnFrom('github', account, { headers: EN })).status === 400 ? true : undefined,
    );

    await setOption(SETTING_KEYS.githubClientId, '');
    const back = await eventually('the configured client id again', async () => {
      const answer = await returnFrom('github', account);
      return answer.status === 200 ? answer : undefined;
    });
    expect(back.body.success).toBe(true);
  });
});
