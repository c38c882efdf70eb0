import { FakeOAuthProvider } from '@tollgate/testing';
import { normalUserOnAdminRoutes } from './accounts/admin-routes';
import { apiKeys } from './accounts/api-keys';
import { OAUTH_CLIENT, oauthQuotaAndAudit } from './accounts/oauth-quota-audit';
import { privatePrices } from './accounts/private-prices';
import { startAccountsPlatform, type AccountsPlatform } from './support/accounts-platform';

// Generous for the hooks: starting the processes takes a minute when the machine is busy.
jest.setTimeout(180_000);

/**
 * One distributed platform (everything but chat, the OAuth providers pointed at a fake) for the
 * accounts scenarios: each starts its own browsers, users, channel and model on it, and none
 * counts on the platform being otherwise empty.
 */
describe('accounts on one distributed platform', () => {
  const oauth = new FakeOAuthProvider(OAUTH_CLIENT);
  let tollgate: AccountsPlatform;

  beforeAll(async () => {
    await oauth.start();
    tollgate = await startAccountsPlatform({
      name: 'shared',
      skip: ['chat'],
      env: (gatewayUrl) => oauth.serviceEnv(gatewayUrl),
    });
  });
  afterAll(async () => {
    await tollgate?.stop();
    await oauth.close();
  });

  const platform = () => tollgate;
  oauthQuotaAndAudit(platform);
  apiKeys(platform);
  normalUserOnAdminRoutes(platform);
  privatePrices(platform);
});
