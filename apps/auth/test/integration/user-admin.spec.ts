import {
  Role,
  TOPICS,
  UserStatus,
  type AdminUserView,
  type AuditRecorded,
  type IdentityUser,
} from '@tollgate/contracts';
import { eventually, INFRASTRUCTURES } from '@tollgate/testing';
import { AccountsHarness, EN, PASSWORD, RU, type SignedInUser } from './accounts-harness';
import { FakeBilling } from './fake-billing';

jest.setTimeout(120_000);

describe.each(INFRASTRUCTURES)('user admin on %s infrastructure', (kind) => {
  let billing: FakeBilling;
  const h: AccountsHarness = new AccountsHarness(kind, 'auth-user-admin-it', {
    record: [TOPICS.identityUser, TOPICS.auditRecorded],
    authEnv: async (infra) => {
      billing = new FakeBilling(h.secret, infra.runtime.bus);
      await billing.start();
      return { BILLING_URL: billing.url };
    },
  });
  let root: SignedInUser;
  let admin: SignedInUser;

  beforeAll(async () => {
    await h.start();
    root = await h.signIn(h.rootName, h.rootPassword);
    admin = await h.signedInUser();
    const promoted = await root.call('/api/user/manage', { body: { id: admin.id, action: 'promote' } });
    expect(promoted.body.data).toMatchObject({ role: Role.Admin });
  });
  afterAll(async () => {
    await h.stop();
    await billing?.close();
  });

  const view = (answer: { body: { data?: unknown } }) => answer.body.data as AdminUserView;

  it('lists users ten to a page, newest first, searches them and reads one', async () => {
    const user = await h.signedInUser();

    const page = await admin.call('/api/user/?p=1');
    const found = await admin.call(`/api/user/search?keyword=${user.username.slice(2)}`);
    const read = await admin.call(`/api/user/${user.id}`);
    const missing = await admin.call('/api/user/999999', { headers: EN });

    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ page: 1, page_size: 10, total: expect.any(Number) });
    expect((page.body.data as { items: AdminUserView[] }).items[0]!.id).toBe(user.id);
    expect((found.body.data as { items: AdminUserView[] }).items.map((u) => u.id)).toEqual([user.id]);
    expect(view(read)).toMatchObject({
      id: user.id,
      username: user.username,
      email: user.email,
      role: Role.User,
      status: UserStatus.Enabled,
      quota: 0,
      github_id: '',
    });
    expect(missing).toMatchObject({ status: 404, body: { message: 'User not found' } });
  });

  it('filters the list by role, status and group, with or without a keyword', async () => {
    const disabled = await h.signedInUser();
    const grouped = await h.signedInUser();
    expect(
      (await root.call('/api/user/manage', { body: { id: disabled.id, action: 'disable' } })).status,
    ).toBe(200);
    const group = `g${Date.now().toString(36)}`;
    expect((await root.call('/api/user/', { method: 'PUT', body: { id: grouped.id, group } })).status).toBe(
      200,
    );
    const ids = async (path: string) => {
      const answer = await admin.call(path);
      expect(answer.status).toBe(200);
      return (answer.body.data as { items: AdminUserView[] }).items.map((u) => u.id);
    };

    expect(await ids(`/api/user/?group=${group}`)).toEqual([grouped.id]);
    expect(await ids(`/api/user/search?keyword=${disabled.username}&status=${UserStatus.Disabled}`)).toEqual([
      disabled.id,
    ]);
    expect(await ids(`/api/user/search?keyword=${disabled.username}&status=${UserStatus.Enabled}`)).toEqual(
      [],
    );
    const admins = await ids(`/api/user/?role=${Role.Admin}&size=100`);
    expect(admins).toContain(admin.id);
    expect(admins).not.toContain(grouped.id);
    expect(await ids(`/api/user/?role=${Role.Root}`)).toEqual([root.id]);
    const refused = await Promise.all(
      ['role=5', 'status=9', 'group=a%20b', 'role=abc'].map((query) =>
        admin.call(`/api/user/?${query}`, { headers: EN }),
      ),
    );
    expect(refused.map((answer) => answer.status)).toEqual([400, 400, 400, 400]);
  });

  it("shows a user's API keys to an admin, masked", async () => {
    const user = await h.signedInUser();
    const created = await user.call('/api/token', { method: 'POST', body: { name: 'ci key' } });
    expect(created.status).toBe(200);
    const secretKey = (
      await user.call(`/api/token/${(created.body.data as { id: number }).id}/key`, { method: 'POST' })
    ).body.data as {
      key: string;
    };

    const keys = await admin.call(`/api/user/${user.id}/tokens`);
    const refused = await user.call(`/api/user/${user.id}/tokens`);
    const missing = await admin.call('/api/user/999999/tokens');

    expect(keys.status).toBe(200);
    const items = (keys.body.data as { items: { name: string; key: string }[] }).items;
    expect(items.map((token) => token.name)).toEqual(['ci key']);
    expect(JSON.stringify(keys.body)).not.toContain(secretKey.key.replace(/^sk-/, ''));
    expect(refused.status).toBe(403);
    expect(missing.status).toBe(404);
  });

  it('refuses the admin calls to an ordinary user with 403', async () => {
    const user = await h.signedInUser();
    expect((await user.call('/api/user/')).status).toBe(403);
    expect((await user.call('/api/user/manage', { body: { id: admin.id, action: 'disable' } })).status).toBe(
      403,
    );
  });

  it('creates a user who can sign in, refusing a taken username', async () => {
    const username = h.newName();

    const created = await admin.call('/api/user/', {
      body: { username, password: PASSWORD, display_name: 'Made By Admin' },
      headers: RU,
    });
    const again = await admin.call('/api/user/', { body: { username, password: PASSWORD }, headers: EN });

    expect(created).toMatchObject({ status: 200, body: { message: 'Пользователь создан' } });
    expect(view(created)).toMatchObject({
      username,
      display_name: 'Made By Admin',
      role: Role.User,
      email: null,
    });
    expect(again).toMatchObject({ status: 409, body: { message: 'This username is already taken' } });
    expect((await h.signIn(username, PASSWORD)).id).toBe(view(created).id);
  });

  it('sets the balance through billing (visible in self), the group and the password', async () => {
    const user = await h.signedInUser();

    const updated = await admin.call('/api/user/', {
      method: 'PUT',
      body: { id: user.id, quota: 1_500_000, group: 'vip', password: 'admin-set-pw1' },
    });

    expect(updated.status).toBe(200);
    expect(billing.calls.at(-1)).toEqual({
      userId: user.id,
      request: {
        quota: 1_500_000,
        idempotency_key: expect.any(String),
        actor_id: admin.id,
        actor_role: Role.Admin,
        reason: expect.any(String),
      },
    });
    // A new password ends the user's sessions (session-revocation.spec.ts): self is read signed in again.
    const again = await h.signIn(user.username, 'admin-set-pw1');
    expect(again.id).toBe(user.id);
    const self = await eventually('the balance in self', async () => {
      const answer = await again.call('/api/user/self');
      return answer.body.data?.['quota'] === 1_500_000 ? answer : undefined;
    });
    expect(self.body.data).toMatchObject({ group: 'vip' });
    await eventually(
      'the new group on identity.user',
      async () =>
        h.recorder(TOPICS.identityUser).values<IdentityUser>((u) => u.id === user.id && u.group === 'vip')[0],
    );
  });

  it('writes no user.update entry when only the balance changes: billing audits that', async () => {
    const user = await h.signedInUser();
    const edit = (body: Record<string, unknown>) =>
      admin.call('/api/user/', { method: 'PUT', body: { id: user.id, ...body } });

    // Alone, and as the web's edit dialog sends it: display name and group as they are, with the balance.
    // Each answer carries the balance billing set, not the read model's (billing.balance comes after it).
    const alone = await edit({ quota: 100, quota_reason: 'pilot' });
    expect([alone.status, alone.body.data?.['quota']]).toEqual([200, 100]);
    const asTheWebSends = await edit({
      display_name: user.username,
      group: 'default',
      quota: 200,
      quota_reason: 'pilot',
    });
    expect([asTheWebSends.status, asTheWebSends.body.data?.['quota']]).toEqual([200, 200]);
    expect((await edit({ display_name: 'Renamed' })).status).toBe(200);

    // The rename comes after the balance edits on the same key, so once it is recorded they would be too.
    const updates = (entry: AuditRecorded) =>
      entry.action === 'user.update' && entry.target_id === String(user.id);
    await eventually('the rename in the audit trail', async () =>
      h.recorder(TOPICS.auditRecorded).values<AuditRecorded>(updates).length > 0 ? true : undefined,
    );
    const recorded = h.recorder(TOPICS.auditRecorded).values<AuditRecorded>(updates);
    expect(recorded.map((entry) => [entry.changed, entry.after?.['display_name']])).toEqual([
      [['display_name'], 'Renamed'],
    ]);
  });

  it('changes nothing when billing cannot set the balance: 503 with Retry-After', async () => {
    const user = await h.signedInUser();
    billing.failing = true;
    try {
      const refused = await admin.call('/api/user/', {
        method: 'PUT',
        body: { id: user.id, quota: 10, display_name: 'Not Applied' },
        headers: EN,
      });
      expect(refused.status).toBe(503);
      expect(refused.body.message).toBe('The user’s balance could not be changed. Please try again later');
      expect(refused.headers.get('retry-after')).toBe('5');
    } finally {
      billing.failing = false;
    }
    expect(view(await admin.call(`/api/user/${user.id}`)).display_name).toBe(user.username);
  });

  it('lets only root change roles; admins cannot manage their peers or root', async () => {
    const user = await h.signedInUser();
    const otherAdmin = await h.signedInUser();
    await root.call('/api/user/manage', { body: { id: otherAdmin.id, action: 'promote' } });

    const byAdmin = await admin.call('/api/user/', {
      method: 'PUT',
      body: { id: user.id, role: Role.Admin },
      headers: EN,
    });
    const promoteByAdmin = await admin.call('/api/user/manage', {
      body: { id: user.id, action: 'promote' },
      headers: EN,
    });
    const peer = await admin.call('/api/user/manage', {
      body: { id: otherAdmin.id, action: 'disable' },
      headers: EN,
    });
    const rootTarget = await admin.call('/api/user/', {
      method: 'PUT',
      body: { id: root.id, display_name: 'x' },
    });
    const byRoot = await root.call('/api/user/', { method: 'PUT', body: { id: user.id, role: Role.Admin } });
    const demoted = await root.call('/api/user/manage', { body: { id: user.id, action: 'demote' } });
    const demoteAgain = await root.call('/api/user/manage', {
      body: { id: user.id, action: 'demote' },
      headers: EN,
    });

    expect(byAdmin).toMatchObject({ status: 403, body: { message: 'Only the root user can change roles' } });
    expect(promoteByAdmin.status).toBe(403);
    expect(peer).toMatchObject({
      status: 403,
      body: { message: 'You cannot manage a user whose role is equal to or higher than yours' },
    });
    expect(rootTarget.status).toBe(403);
    expect(view(byRoot).role).toBe(Role.Admin);
    expect(view(demoted).role).toBe(Role.User);
    expect(demoteAgain).toMatchObject({
      status: 409,
      body: { message: 'The user is already an ordinary user' },
    });
  });

  it('disables a user (sign-in refused, sessions ended), enables again, and deletes', async () => {
    const user = await h.signedInUser();

    const disabled = await admin.call('/api/user/manage', { body: { id: user.id, action: 'disable' } });
    expect(view(disabled).status).toBe(UserStatus.Disabled);
    expect((await h.lookup({ session: user.session })).status).toBe(401);
    await expect(h.signIn(user.username, PASSWORD)).rejects.toThrow(/403/);

    await admin.call('/api/user/manage', { body: { id: user.id, action: 'enable' } });
    const again = await h.signIn(user.username, PASSWORD);
    expect((await again.call('/api/user/self')).status).toBe(200);

    const deleted = await admin.call(`/api/user/${user.id}`, { method: 'DELETE', headers: EN });
    expect(deleted).toMatchObject({ status: 200, body: { message: 'User deleted' } });
    expect((await admin.call(`/api/user/${user.id}`)).status).toBe(404);
    expect((await h.lookup({ session: again.session })).status).toBe(401);
    const unknownAction = await admin.call('/api/user/manage', {
      body: { id: user.id, action: 'explode' },
      headers: EN,
    });
    expect(unknownAction.status).toBe(400);
  });

  describe('bad input never breaks a write', () => {
    const badValues: [string, unknown][] = [
      ['a string', 'abc'],
      ['an object', { $ne: null }],
      ['an array', [1]],
      ['an SQL fragment', '1; drop table users; --'],
      ['HTML', '<img src=x onerror=alert(1)>'],
      ['control characters', 'ab\u0000\u0007cd'],
      ['a 1 MB string', 'a'.repeat(1_000_000)],
      ['a negative number', -5],
      ['a fraction', 1.5],
    ];
    const writes: [string, string, string, Record<string, unknown>][] = [
      ['POST', '/api/user/', 'username', { password: PASSWORD }],
      ['POST', '/api/user/', 'password', { username: 'fresh' }],
      ['POST', '/api/user/', 'display_name', { username: 'fresh2', password: PASSWORD }],
      ['PUT', '/api/user/', 'id', {}],
      ['PUT', '/api/user/', 'quota', {}],
      ['PUT', '/api/user/', 'role', {}],
      ['PUT', '/api/user/', 'group', {}],
      ['POST', '/api/user/manage', 'id', { action: 'disable' }],
      ['POST', '/api/user/manage', 'action', {}],
    ];
    const TEXT_FIELDS = ['username', 'display_name', 'group'];
    let target: SignedInUser;
    beforeAll(async () => {
      target = await h.signedInUser();
    });

    it.each(
      writes.flatMap(([method, path, field, base]) =>
        badValues
          // A short word is a fine name or group: it is bad input only where a number belongs.
          .filter(([label]) => !(label === 'a string' && TEXT_FIELDS.includes(field)))
          .map(([label, value]) => [method, path, field, label, base, value] as const),
      ),
    )(
      '%s %s with %s as %s: a 4xx envelope, nothing changed',
      async (method, path, field, _label, base, value) => {
        const body = { id: target.id, ...base, [field]: value };
        const calls = billing.calls.length;

        const answer = await admin.call(path, { method, body, headers: EN });

        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.body).toEqual({ success: false, message: expect.any(String) });
        expect(billing.calls.length).toBe(calls);
        expect(view(await admin.call(`/api/user/${target.id}`))).toMatchObject({
          display_name: target.username,
          role: Role.User,
          status: UserStatus.Enabled,
          group: 'default',
        });
      },
    );
  });
});
