import { eventually, INFRASTRUCTURES } from '@tollgate/testing';
import { AccountsHarness, EN, PASSWORD, type SignedInUser } from './accounts-harness';

jest.setTimeout(120_000);

describe.each(INFRASTRUCTURES)('a new password ends other sign-ins on %s infrastructure', (kind) => {
  const h = new AccountsHarness(kind, 'auth-session-revocation-it');

  beforeAll(() => h.start());
  afterAll(() => h.stop());

  const selfStatus = async (browser: SignedInUser) => (await browser.call('/api/user/self')).status;

  /** The gateway may remember a live session for up to a second. */
  const signedOut = (browser: SignedInUser, who: string) =>
    eventually(
      `${who} signed out`,
      async () => ((await selfStatus(browser)) === 401 ? true : undefined),
      5_000,
    );

  /** One user in two browsers: A registered, B signed in elsewhere. */
  async function userInTwoBrowsers(): Promise<{ a: SignedInUser; b: SignedInUser }> {
    const a = await h.signedInUser();
    const b = await h.signIn(a.username, PASSWORD);
    expect(await selfStatus(a)).toBe(200);
    expect(await selfStatus(b)).toBe(200);
    return { a, b };
  }

  it('a password change signs out the other browser and the access token; the changing browser gets a fresh session', async () => {
    const { a, b } = await userInTwoBrowsers();
    const accessToken = (await a.call('/api/user/token')).body.data as unknown as string;
    const renamed = await a.call('/api/user/self', { method: 'PUT', body: { display_name: 'Still Here' } });
    expect(renamed.status).toBe(200);
    expect(renamed.session).toBeUndefined();
    expect(await selfStatus(b)).toBe(200);
    const before = (await h.lookup({ session: a.session })).body.data!;

    const changed = await a.call('/api/user/self', {
      method: 'PUT',
      body: { password: 'changed-pass-1', original_password: PASSWORD },
      headers: EN,
    });

    expect(changed).toMatchObject({
      status: 200,
      body: { success: true, message: 'Password updated successfully' },
    });
    expect(changed.session).toEqual(expect.any(String));
    expect(changed.session).not.toBe(a.session);
    expect(changed.setCookie[0]).toMatch(/HttpOnly/);
    await signedOut(b, 'the other browser');
    expect((await h.lookup({ session: a.session })).status).toBe(401);
    expect((await h.lookup({ access_token: accessToken })).status).toBe(401);
    const renewed = h.asUser(a.id, a.username, a.email, changed.session!);
    expect((await renewed.call('/api/user/self')).body.data).toMatchObject({
      id: a.id,
      display_name: 'Still Here',
    });
    const after = (await h.lookup({ session: renewed.session })).body.data!;
    expect(after['sessionId']).not.toBe(before['sessionId']);
    const elsewhere = await h.signIn(a.username, 'changed-pass-1');
    expect(await selfStatus(elsewhere)).toBe(200);
  });

  it('a password reset by mailed code ends every session of the user', async () => {
    const { a, b } = await userInTwoBrowsers();
    const mailed = await h.mailCount(a.email);
    await h.anonymous(`/api/reset_password?email=${a.email}`);
    const code = await h.mailedCode(a.email, mailed);

    const reset = await h.anonymous('/api/user/reset', {
      body: { email: a.email, token: code, password: 'reset-pass-1' },
    });

    expect(reset.status).toBe(200);
    expect(reset.session).toBeUndefined();
    await signedOut(a, 'the first browser');
    await signedOut(b, 'the second browser');
    const again = await h.signIn(a.username, 'reset-pass-1');
    expect(await selfStatus(again)).toBe(200);
  });

  it('an admin setting a new password ends the user’s sessions; other admin edits do not', async () => {
    const root = await h.signIn(h.rootName, h.rootPassword);
    const { a, b } = await userInTwoBrowsers();

    const renamed = await root.call('/api/user/', {
      method: 'PUT',
      body: { id: a.id, display_name: 'Renamed' },
    });
    expect(renamed.status).toBe(200);
    expect(await selfStatus(a)).toBe(200);

    const changed = await root.call('/api/user/', {
      method: 'PUT',
      body: { id: a.id, password: 'admin-set-1' },
    });

    expect(changed.status).toBe(200);
    expect(changed.session).toBeUndefined();
    await signedOut(a, 'the first browser');
    await signedOut(b, 'the second browser');
    expect(await selfStatus(root)).toBe(200);
    const again = await h.signIn(a.username, 'admin-set-1');
    expect(await selfStatus(again)).toBe(200);
  });
});
