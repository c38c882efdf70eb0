import { randomBytes, randomInt } from 'node:crypto';
import { Role, UserStatus, type AdminUserView, type AuditEntryView, type Page } from '@tollgate/contracts';
import { eventually } from '@tollgate/testing';
import { Browser } from '../support/accounts-browser';
import type { AccountsPlatform } from '../support/accounts-platform';

/** The client every OAuth provider of the shared platform is configured with (the fake checks it). */
export const OAUTH_CLIENT = {
  clientId: `tollgate-e2e-${randomBytes(3).toString('hex')}`,
  clientSecret: randomBytes(16).toString('hex'),
};
const PASSWORD = 'correct-horse-9';

/**
 * What spans auth, billing and admin as their own processes on real PostgreSQL, Redis and Kafka,
 * through the gateway: the OAuth providers auth is configured with in admin's /api/status, a quota
 * set by root travelling auth → billing ledger → billing.balance → auth, and one audit trail of
 * root's actions in every service. OAuth sign-in itself and user admin within auth are auth's
 * integration specs (oauth.spec.ts, user-admin.spec.ts). The platform is shared with the other
 * accounts scenarios, so the audit trail is filtered down to this scenario's own targets.
 */
export function oauthQuotaAndAudit(platform: () => AccountsPlatform): void {
  describe('accounts through the gateway: OAuth providers, quota and audit across services', () => {
    let root: Browser;

    beforeAll(async () => {
      root = await platform().signedInRoot();
    });

    const newName = () => `u${randomBytes(5).toString('hex')}`;

    it('reports the three providers enabled in /api/status, with their client ids', async () => {
      const status = await new Browser(platform().url).call('/api/status');

      expect(status.status).toBe(200);
      expect(status.body.data).toMatchObject({
        github_oauth: true,
        google_oauth: true,
        discord_oauth: true,
        github_client_id: OAUTH_CLIENT.clientId,
        google_client_id: OAUTH_CLIENT.clientId,
        discord_client_id: OAUTH_CLIENT.clientId,
      });
    });

    describe('user admin by root', () => {
      /** A user root creates, signed in in their own browser. */
      async function aUser(): Promise<{ browser: Browser; id: number; username: string }> {
        const username = newName();
        const created = await root.call('/api/user/', {
          body: { username, password: PASSWORD, display_name: 'Made By Root' },
        });
        expect(created.status).toBe(200);
        const browser = new Browser(platform().url);
        expect((await browser.signIn(username, PASSWORD)).status).toBe(200);
        return { browser, id: (created.body.data as AdminUserView).id, username };
      }

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
        // The channel's name is this scenario's own: the other scenarios' root makes channels too.
        const channelName = `audited ${randomBytes(3).toString('hex')}`;

        const changes = [
          await root.call('/api/user/', {
            method: 'PUT',
            body: {
              id: user.id,
              display_name: 'Audited',
              password,
              quota: 777_000,
              quota_reason: 'goodwill',
            },
          }),
          await root.call('/api/user/manage', { body: { id: user.id, action: 'disable' } }),
          await root.call('/api/promo/', { body: { code, type: 'percent', value: '10' } }),
          await root.call('/api/channel/', {
            body: {
              type: 1,
              name: channelName,
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
                  (entry.after as { name?: string } | null)?.name === channelName),
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
        expect(byAction['user.update']!.changed).toEqual(
          expect.arrayContaining(['display_name', 'password']),
        );
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
}
