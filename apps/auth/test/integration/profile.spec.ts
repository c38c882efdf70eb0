import { TOPICS, UserStatus, type IdentityToken, type IdentityUser } from '@tollgate/contracts';
import { eventually, INFRASTRUCTURES } from '@tollgate/testing';
import { AccountsHarness, EN, PASSWORD, RU } from './accounts-harness';

jest.setTimeout(120_000);

describe.each(INFRASTRUCTURES)('profile, access tokens, reset and invites on %s infrastructure', (kind) => {
  const h = new AccountsHarness(kind, 'auth-profile-it', {
    record: [TOPICS.identityUser, TOPICS.identityToken],
  });

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  describe('personal access token', () => {
    it('issues a new token on every call; only the newest resolves, as the user via access_token', async () => {
      const user = await h.signedInUser();

      const first = await user.call('/api/user/token');
      const second = await user.call('/api/user/token');

      expect(first.status).toBe(200);
      const firstToken = first.body.data as unknown as string;
      const secondToken = second.body.data as unknown as string;
      expect(secondToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(secondToken).not.toBe(firstToken);
      expect((await h.lookup({ access_token: firstToken })).status).toBe(401);
      const resolved = await h.lookup({ access_token: `Bearer ${secondToken}` });
      expect(resolved.status).toBe(200);
      expect(resolved.body.data).toEqual({
        userId: user.id,
        role: 1,
        group: 'default',
        sessionId: expect.stringMatching(/^access-token:/),
        via: 'access_token',
      });
      const session = await h.lookup({ session: user.session });
      expect(session.body.data).toMatchObject({ userId: user.id, via: 'session' });
    });

    it('signs a script in through the gateway as Authorization with New-Api-User, and not without it', async () => {
      const user = await h.signedInUser();
      const token = (await user.call('/api/user/token')).body.data as unknown as string;

      const self = await h.anonymous('/api/user/self', {
        headers: { authorization: `Bearer ${token}`, 'new-api-user': String(user.id) },
      });
      expect(self.status).toBe(200);
      expect(self.body.data).toMatchObject({ id: user.id });

      const unnamed = await h.anonymous('/api/user/self', { headers: { authorization: `Bearer ${token}` } });
      expect(unnamed.status).toBe(401);
      const forged = await h.anonymous('/api/user/self', {
        headers: { authorization: 'Bearer not-a-token-of-anyone-000000000', 'new-api-user': String(user.id) },
      });
      expect(forged.status).toBe(401);
    });

    it('stops resolving when the user is disabled, and refuses a look-up of both kinds at once', async () => {
      const user = await h.signedInUser();
      const token = (await user.call('/api/user/token')).body.data as unknown as string;
      expect((await h.lookup({ session: user.session, access_token: token })).status).toBe(401);

      await h.withAuthStopped((query) =>
        query('update users set status = ? where id = ?', [UserStatus.Disabled, user.id]),
      );

      expect((await h.lookup({ access_token: token })).status).toBe(401);
    });
  });

  describe('PUT /api/user/self', () => {
    it('changes the display name, and publishes the user', async () => {
      const user = await h.signedInUser();

      const answer = await user.call('/api/user/self', {
        method: 'PUT',
        body: { display_name: 'Анна Smith', password: '', original_password: '' },
        headers: RU,
      });

      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ success: true, message: 'Профиль обновлён' });
      expect((await user.call('/api/user/self')).body.data).toMatchObject({ display_name: 'Анна Smith' });
      await eventually(
        'the renamed user on identity.user',
        async () =>
          h
            .recorder(TOPICS.identityUser)
            .values<IdentityUser>((u) => u.id === user.id && u.display_name === 'Анна Smith')[0],
      );
    });

    it('changes the password only with the right current password', async () => {
      const user = await h.signedInUser();

      const without = await user.call('/api/user/self', {
        method: 'PUT',
        body: { password: 'new-password-1' },
        headers: EN,
      });
      const wrong = await user.call('/api/user/self', {
        method: 'PUT',
        body: { password: 'new-password-1', original_password: 'not-the-password' },
        headers: EN,
      });
      const right = await user.call('/api/user/self', {
        method: 'PUT',
        body: { password: 'new-password-1', original_password: PASSWORD },
        headers: RU,
      });

      expect(without).toMatchObject({
        status: 400,
        body: { success: false, message: 'Enter your current password to change the password or email' },
      });
      expect(wrong).toMatchObject({ status: 400, body: { message: 'The current password is wrong' } });
      expect(right).toMatchObject({ status: 200, body: { message: 'Пароль успешно обновлен' } });
      await expect(h.signIn(user.username, PASSWORD)).rejects.toThrow(/401/);
      expect((await h.signIn(user.username, 'new-password-1')).id).toBe(user.id);
    });

    it('changes the address with the current password, refusing one another account has with 409', async () => {
      const user = await h.signedInUser();
      const other = await h.signedInUser();
      const address = `${h.newName()}@example.org`;

      const taken = await user.call('/api/user/self', {
        method: 'PUT',
        body: { email: other.email, original_password: PASSWORD },
        headers: EN,
      });
      const changed = await user.call('/api/user/self', {
        method: 'PUT',
        body: { email: address.toUpperCase(), original_password: PASSWORD },
      });

      expect(taken).toMatchObject({ status: 409, body: { message: 'This email is already registered' } });
      expect(changed.status).toBe(200);
      expect((await user.call('/api/user/self')).body.data).toMatchObject({ email: address });
    });
  });

  describe('PUT /api/user/setting', () => {
    it('keeps RUB or USD (anything else is RUB), a language and a notification address', async () => {
      const user = await h.signedInUser();

      const usd = await user.call('/api/user/setting', {
        method: 'PUT',
        body: { default_currency: 'USD', language: 'en', notification_email: 'Alerts@Example.com' },
        headers: EN,
      });
      const eur = await user.call('/api/user/setting', { method: 'PUT', body: { default_currency: 'EUR' } });
      const badLanguage = await user.call('/api/user/setting', {
        method: 'PUT',
        body: { language: 'de' },
        headers: EN,
      });

      expect(usd).toMatchObject({
        status: 200,
        body: {
          message: 'Settings saved',
          data: { default_currency: 'USD', language: 'en', notification_email: 'alerts@example.com' },
        },
      });
      expect(eur.body.data).toEqual({
        default_currency: 'RUB',
        language: 'en',
        notification_email: 'alerts@example.com',
      });
      expect(badLanguage).toMatchObject({
        status: 400,
        body: { success: false, message: 'Invalid settings' },
      });
      const self = (await user.call('/api/user/self')).body.data!;
      expect(JSON.parse(self['setting'] as string)).toEqual(eur.body.data);
    });

    it('publishes the chosen currency on identity.user, for relay to tell costs in', async () => {
      const user = await h.signedInUser();
      const published = (currency: string) =>
        h
          .recorder(TOPICS.identityUser)
          .values<IdentityUser>((u) => u.id === user.id && u.default_currency === currency)[0];

      await user.call('/api/user/setting', { method: 'PUT', body: { default_currency: 'USD' } });
      await eventually('the user in dollars on identity.user', async () => published('USD'));
      await user.call('/api/user/setting', { method: 'PUT', body: { default_currency: 'RUB' } });
      await eventually('the user in rubles on identity.user', async () => published('RUB'));
    });
  });

  describe('DELETE /api/user/self', () => {
    it('soft-deletes: keys tombstoned, user tombstoned, session and sign-in gone, root refused', async () => {
      const user = await h.signedInUser();
      const key = await user.call('/api/token', { method: 'POST', body: { name: 'doomed' } });
      const keyId = (key.body.data as { id: number }).id;
      await eventually(
        'the key on identity.token',
        async () => h.recorder(TOPICS.identityToken).values<IdentityToken>((t) => t.id === keyId)[0],
      );

      const deleted = await user.call('/api/user/self', { method: 'DELETE', headers: EN });

      expect(deleted).toMatchObject({ status: 200, body: { success: true, message: 'Account deleted' } });
      expect(deleted.setCookie[0]).toMatch(/Max-Age=0/);
      await eventually(
        'the key tombstone',
        async () =>
          h.recorder(TOPICS.identityToken).records.some((r) => r.key === String(keyId) && r.value === null) ||
          undefined,
      );
      await eventually(
        'the user tombstone',
        async () =>
          h
            .recorder(TOPICS.identityUser)
            .records.some((r) => r.key === String(user.id) && r.value === null) || undefined,
      );
      expect((await h.lookup({ session: user.session })).status).toBe(401);
      await expect(h.signIn(user.username, PASSWORD)).rejects.toThrow(/401/);

      const root = await h.signIn(h.rootName, h.rootPassword);
      const refused = await root.call('/api/user/self', { method: 'DELETE', headers: EN });
      expect(refused).toMatchObject({ status: 403, body: { message: 'The root account cannot be deleted' } });
    });
  });

  describe('password reset', () => {
    it('answers an unknown address like a known one, mailing only the known one, with a 60 s cooldown', async () => {
      const user = await h.signedInUser();
      const unknown = `${h.newName()}@example.com`;

      const known = await h.anonymous(`/api/reset_password?email=${user.email}`, { headers: RU });
      const stranger = await h.anonymous(`/api/reset_password?email=${unknown}`, { headers: RU });
      const again = await h.anonymous(`/api/reset_password?email=${unknown}`, { headers: EN });

      expect(known.body).toEqual({
        success: true,
        message: 'Код для сброса пароля отправлен на ваш email',
        data: null,
      });
      expect(stranger.body).toEqual(known.body);
      expect(again.status).toBe(429);
      expect(again.body.message).toMatch(
        /^A code has already been sent\. You can request a new one in \d+ s$/,
      );
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await h.mailCount(unknown)).toBe(0);
    });

    it('sets the new password with the mailed code, once', async () => {
      const user = await h.signedInUser();
      const before = await h.mailCount(user.email);
      await h.anonymous(`/api/reset_password?email=${user.email}`);
      const code = await h.mailedCode(user.email, before);

      const wrong = await h.anonymous('/api/user/reset', {
        body: { email: user.email, token: code === '000000' ? '111111' : '000000', password: 'reset-pass-1' },
        headers: EN,
      });
      const reset = await h.anonymous('/api/user/reset', {
        body: { email: user.email, token: code, password: 'reset-pass-1' },
        headers: RU,
      });
      const reused = await h.anonymous('/api/user/reset', {
        body: { email: user.email, token: code, password: 'reset-pass-2' },
      });

      expect(wrong).toMatchObject({
        status: 400,
        body: { message: 'The verification code is wrong or has expired' },
      });
      expect(reset).toMatchObject({
        status: 200,
        body: { success: true, message: 'Пароль успешно обновлен' },
      });
      expect(reused.status).toBe(400);
      expect((await h.signIn(user.username, 'reset-pass-1')).id).toBe(user.id);
    });
  });

  describe('invite codes', () => {
    it('makes the code on the first call, keeps it, and records the inviter of a registration with it', async () => {
      const inviter = await h.signedInUser();

      const first = await inviter.call('/api/user/aff');
      const second = await inviter.call('/api/user/aff');
      const code = first.body.data as unknown as string;
      const invited = await h.signedInUser({ aff_code: code });

      expect(code).toMatch(/^[A-Za-z0-9]{8}$/);
      expect(second.body.data).toBe(code);
      expect((await invited.call('/api/user/self')).body.data).toMatchObject({ inviter_id: inviter.id });
      expect((await inviter.call('/api/user/self')).body.data).toMatchObject({
        aff_code: code,
        aff_count: 1,
      });
      await eventually(
        'the invited user with its inviter on identity.user',
        async () =>
          h
            .recorder(TOPICS.identityUser)
            .values<IdentityUser>((u) => u.id === invited.id && u.inviter_id === inviter.id)[0],
      );
    });
  });

  describe('bad input never breaks a write', () => {
    const badValues: [string, unknown][] = [
      ['a number', 12345678],
      ['an object', { $ne: null }],
      ['an array', ['a', 'b']],
      ['over-long', 'x'.repeat(300)],
      ['an SQL fragment', "x'); drop table users; --"],
      ['HTML', '<script>alert(1)</script>'],
      ['control characters', 'ab\u0000\u0007cd\u001bef'],
      ['a 1 MB string', 'a'.repeat(1_000_000)],
    ];
    const writes: [string, string, string, Record<string, unknown>][] = [
      ['PUT', '/api/user/self', 'display_name', {}],
      ['PUT', '/api/user/self', 'email', { original_password: PASSWORD }],
      ['PUT', '/api/user/self', 'password', { original_password: PASSWORD }],
      ['PUT', '/api/user/setting', 'language', {}],
      ['PUT', '/api/user/setting', 'notification_email', {}],
      ['POST', '/api/user/reset', 'email', { token: '123456', password: 'reset-pass-1' }],
      ['POST', '/api/user/reset', 'token', { email: 'a@example.com', password: 'reset-pass-1' }],
      ['POST', '/api/user/reset', 'password', { email: 'a@example.com', token: '123456' }],
    ];
    let user: Awaited<ReturnType<AccountsHarness['signedInUser']>>;
    beforeAll(async () => {
      user = await h.signedInUser();
    });

    it.each(
      writes.flatMap(([method, path, field, base]) =>
        badValues.map(([label, value]) => [method, path, field, label, base, value] as const),
      ),
    )(
      '%s %s with %s as %s: a 4xx envelope, nothing changed',
      async (method, path, field, _label, base, value) => {
        const answer = await user.call(path, { method, body: { ...base, [field]: value }, headers: EN });

        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.body).toEqual({ success: false, message: expect.any(String) });
        const self = (await user.call('/api/user/self')).body.data!;
        expect(self).toMatchObject({ display_name: user.username, email: user.email, setting: '' });
      },
    );
  });
});
