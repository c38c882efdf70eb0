import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE_NAME } from '@tollgate/contracts';
import { FakeOAuthProvider, INFRASTRUCTURES, type FakeOAuthAccount } from '@tollgate/testing';
import { AccountsHarness, PASSWORD } from './accounts-harness';
import { cookieHeader } from './auth-client';

jest.setTimeout(120_000);

const CLIENT = { clientId: 'tollgate-security-client', clientSecret: randomBytes(16).toString('hex') };
const CONSENTS = 'agree_to_terms=true&agree_to_data_processing=true';

/**
 * The attempts of docs/security.md against sessions and OAuth, through the gateway: session
 * fixation, cross-site sign-in and state changes, OAuth state replay and mix-up.
 */
describe.each(INFRASTRUCTURES)('sessions and OAuth under attack on %s infrastructure', (kind) => {
  const provider = new FakeOAuthProvider(CLIENT);
  const h = new AccountsHarness(kind, 'auth-security-it', {
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
    name: 'Mallory',
  });
  const selfWith = (session: string, userId: number) =>
    h.anonymous('/api/user/self', { headers: { ...cookieHeader(session), 'new-api-user': String(userId) } });

  describe('session fixation', () => {
    it('never adopts a session id planted before sign-in: the answer sets a new one and the planted one names nobody', async () => {
      const victim = await h.signedInUser();
      const planted = randomBytes(32).toString('base64url');

      const signedIn = await h.anonymous('/api/user/login', {
        body: { username: victim.username, password: PASSWORD },
        headers: cookieHeader(planted),
      });

      expect(signedIn.status).toBe(200);
      expect(signedIn.session).toBeDefined();
      expect(signedIn.session).not.toBe(planted);
      expect((await selfWith(planted, victim.id)).status).toBe(401);
      expect((await selfWith(signedIn.session!, victim.id)).status).toBe(200);
    });

    it("never turns the attacker's own live session, planted in the victim's browser, into the victim's", async () => {
      const attacker = await h.signedInUser();
      const victim = await h.signedInUser();

      const signedIn = await h.anonymous('/api/user/login', {
        body: { username: victim.username, password: PASSWORD },
        headers: cookieHeader(attacker.session),
      });

      expect(signedIn.status).toBe(200);
      expect(signedIn.session).not.toBe(attacker.session);
      // The planted cookie was the browser's previous session: signing in ends it, and it never names the victim.
      expect((await selfWith(attacker.session, victim.id)).status).toBe(401);
      const asVictim = await selfWith(signedIn.session!, victim.id);
      expect(asVictim.body.data).toMatchObject({ id: victim.id, username: victim.username });
    });
  });

  describe('cross-site requests with the session cookie', () => {
    it('refuses a sign-in posted as a form or as text (what a page of another site can send without asking), setting no cookie', async () => {
      const victim = await h.signedInUser();
      const json = JSON.stringify({ username: victim.username, password: PASSWORD });

      for (const [contentType, body] of [
        ['application/x-www-form-urlencoded', `username=${victim.username}&password=${PASSWORD}`],
        ['text/plain', json],
        [
          'multipart/form-data; boundary=x',
          `--x\r\nContent-Disposition: form-data; name="username"\r\n\r\n${victim.username}\r\n--x--\r\n`,
        ],
      ]) {
        const answer = await h.anonymous('/api/user/login', {
          rawBody: body,
          headers: { 'content-type': contentType },
        });
        expect({ contentType, refused: answer.status >= 400, success: answer.body.success }).toEqual({
          contentType,
          refused: true,
          success: false,
        });
        expect(answer.setCookie.filter((cookie) => cookie.startsWith(`${SESSION_COOKIE_NAME}=`))).toEqual([]);
      }
    });

    it('refuses a state-changing call that carries the cookie but not New-Api-User, changing nothing', async () => {
      const victim = await h.signedInUser();

      const renamed = await h.anonymous('/api/user/self', {
        method: 'PUT',
        rawBody: JSON.stringify({ display_name: 'pwned' }),
        headers: { ...cookieHeader(victim.session), 'content-type': 'text/plain' },
      });
      const deleted = await h.anonymous('/api/user/self', {
        method: 'DELETE',
        headers: cookieHeader(victim.session),
      });

      expect(renamed.status).toBe(401);
      expect(deleted.status).toBe(401);
      const self = await victim.call('/api/user/self');
      expect(self.status).toBe(200);
      expect(self.body.data!['display_name']).not.toBe('pwned');
    });
  });

  describe('OAuth', () => {
    const stateFor = async () => {
      const state = await h.anonymous(`/api/oauth/state?${CONSENTS}`);
      const cookie = state.setCookie.find((c) => c.startsWith('tollgate_oauth='))!.split(';')[0]!;
      return { state: state.body.data as unknown as string, cookie };
    };

    it('mix-up: a code GitHub issued, brought back to the Google return with a live state, signs nobody in', async () => {
      const { state, cookie } = await stateFor();
      const githubCode = provider.issueCode('github', anAccount(), 'http://tollgate.test/oauth/github');

      const answer = await h.anonymous(`/api/oauth/google?code=${githubCode}&state=${state}`, {
        headers: { cookie },
      });

      expect(answer.status).toBe(400);
      expect(answer.body.success).toBe(false);
      expect(answer.session).toBeUndefined();
      // The code went to Google's token endpoint (the one the return path names), which refused it.
      const exchange = provider.tokenRequests.at(-1)!;
      expect(exchange.provider).toBe('google');
      expect(exchange.params.get('redirect_uri')).toBe('http://tollgate.test/oauth/google');
    });

    it('replay: a state spent at one provider cannot be spent again at another', async () => {
      const { state, cookie } = await stateFor();
      const first = await h.anonymous(
        `/api/oauth/github?code=${provider.issueCode('github', anAccount())}&state=${state}`,
        { headers: { cookie } },
      );
      const exchanges = provider.tokenRequests.length;

      const replayed = await h.anonymous(
        `/api/oauth/discord?code=${provider.issueCode('discord', anAccount())}&state=${state}`,
        { headers: { cookie } },
      );

      expect(first.status).toBe(200);
      expect(replayed.status).toBe(400);
      expect(replayed.session).toBeUndefined();
      expect(provider.tokenRequests.length).toBe(exchanges);
    });
  });
});
