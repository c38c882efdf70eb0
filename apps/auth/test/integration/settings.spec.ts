import { SETTING_KEYS, TOPICS } from '@tollgate/contracts';
import { eventually, INFRASTRUCTURES } from '@tollgate/testing';
import { AccountsHarness, EN, PASSWORD } from './accounts-harness';
import { outboxMailsTo } from './mail-reader';

jest.setTimeout(60_000);

/** Operators' settings (catalog.option, as admin publishes them) change auth's behaviour without a restart. */
describe.each(INFRASTRUCTURES)('settings applied by auth on %s infrastructure', (kind) => {
  const harness = new AccountsHarness(kind, 'auth-settings-it');

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  const setOption = (key: string, value: string) =>
    harness.infra.runtime.bus.publish([
      {
        topic: TOPICS.catalogOption.name,
        key,
        value: { v: 1, key, value, updated_at: Math.floor(Date.now() / 1000) },
      },
    ]);
  const register = () => {
    const username = harness.newName();
    return harness.anonymous('/api/user/register', {
      headers: EN,
      body: {
        username,
        email: `${username}@example.com`,
        password: PASSWORD,
        agree_to_terms: true,
        agree_to_data_processing: true,
      },
    });
  };

  it('refuses registration while RegisterEnabled is false, and accepts it again once it is true', async () => {
    expect((await register()).status).toBe(200);
    await setOption(SETTING_KEYS.registerEnabled, 'false');
    const refused = await eventually('registration to close', async () => {
      const answer = await register();
      return answer.status === 403 ? answer : undefined;
    });
    expect(refused.body).toEqual({
      success: false,
      message: 'Registration of new users is closed at the moment',
    });
    await setOption(SETTING_KEYS.registerEnabled, 'true');
    await eventually('registration to open again', async () =>
      (await register()).status === 200 ? true : undefined,
    );
  });

  it('asks for the mailed code once EmailVerificationEnabled is true, whatever the configuration says', async () => {
    await setOption(SETTING_KEYS.emailVerificationEnabled, 'true');
    const refused = await eventually('e-mail verification to be required', async () => {
      const answer = await register();
      return answer.status === 400 ? answer : undefined;
    });
    expect(refused.body.message).toBe('Please enter the verification code');
    await setOption(SETTING_KEYS.emailVerificationEnabled, 'false');
    await eventually('e-mail verification to be off again', async () =>
      (await register()).status === 200 ? true : undefined,
    );
  });

  it('refuses password sign-in while PasswordLoginEnabled is false, except to root', async () => {
    const user = await harness.signedInUser();
    const signIn = (username: string, password: string) =>
      harness.anonymous('/api/user/login', { headers: EN, body: { username, password } });

    await setOption(SETTING_KEYS.passwordLoginEnabled, 'false');
    const refused = await eventually('password sign-in to be off', async () => {
      const answer = await signIn(user.username, PASSWORD);
      return answer.status === 403 ? answer : undefined;
    });
    expect(refused.body).toEqual({
      success: false,
      message: 'Sign-in by password is turned off. Sign in with GitHub, Google or Discord',
    });
    expect((await signIn(harness.rootName, harness.rootPassword)).status).toBe(200);
    expect((await signIn(user.username, 'a-wrong-password')).status).toBe(401);

    await setOption(SETTING_KEYS.passwordLoginEnabled, 'true');
    await eventually('password sign-in to be on again', async () =>
      (await signIn(user.username, PASSWORD)).status === 200 ? true : undefined,
    );
  });

  it('sends mail from the SMTPFrom address once an operator sets it, and from MAIL_FROM again once unset', async () => {
    const sender = `Tollgate Support <support-${harness.newName()}@tollgate.test>`;
    const mailTo = async (email: string) => {
      const before = (await outboxMailsTo(harness.outboxDir, email)).length;
      const sent = await harness.anonymous(`/api/verification?email=${encodeURIComponent(email)}`);
      expect(sent.status).toBe(200);
      const mails = await eventually('the mail', async () => {
        const all = await outboxMailsTo(harness.outboxDir, email);
        return all.length > before ? all : undefined;
      });
      return /^From:\s*(.+)$/im.exec(mails.at(-1)!)?.[1]?.trim();
    };

    await setOption(SETTING_KEYS.smtpFrom, sender);
    await eventually('mail from the operator’s sender', async () =>
      (await mailTo(`${harness.newName()}@example.com`)) === sender ? true : undefined,
    );
    await setOption(SETTING_KEYS.smtpFrom, '');
    await eventually('mail from the configured sender', async () => {
      const from = await mailTo(`${harness.newName()}@example.com`);
      return from !== undefined && from !== sender ? true : undefined;
    });
  });
});
