import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { adminRoutes } from '../support/admin-routes';
import { Browser } from '../support/accounts-browser';
import type { AccountsPlatform } from '../support/accounts-platform';

const ROUTES = adminRoutes(join(__dirname, '..', '..'));

/**
 * A normal user on every admin route: every /api route whose controller asks for an administrator
 * (found from the services' own metadata, relay's included: it has none) and every prefix the route
 * table closes, called through the gateway by a signed-in ordinary user, answers 403 in the envelope.
 * The routes are found from the source, not from what runs, so relay running changes nothing here.
 */
export function normalUserOnAdminRoutes(platform: () => AccountsPlatform): void {
  describe('a normal user on every admin route', () => {
    let user: Browser;

    beforeAll(async () => {
      const root = await platform().signedInRoot();
      const username = `u${randomBytes(5).toString('hex')}`;
      const password = 'correct-horse-9';
      expect((await root.call('/api/user/', { body: { username, password } })).status).toBe(200);
      user = new Browser(platform().url);
      expect((await user.signIn(username, password)).status).toBe(200);
    });

    it('finds the admin routes of every service that has them', () => {
      const services = new Set(ROUTES.map((route) => route.source.split(':')[0]));
      expect([...services].sort()).toEqual(['admin', 'auth', 'billing', 'gateway route table']);
      expect(ROUTES.length).toBeGreaterThan(30);
    });

    it('answers 403 in the envelope on each of them', async () => {
      const answers = [];
      for (const route of ROUTES) {
        const answer = await user.call(route.path, {
          method: route.method,
          ...(route.method === 'POST' || route.method === 'PUT' ? { body: {} } : {}),
        });
        answers.push({
          route: `${route.method} ${route.path} (${route.source})`,
          status: answer.status,
          success: answer.body.success,
          hasMessage: typeof answer.body.message === 'string' && answer.body.message !== '',
        });
      }
      expect(answers.filter((a) => a.status !== 403 || a.success !== false || !a.hasMessage)).toEqual([]);
    });
  });
}
