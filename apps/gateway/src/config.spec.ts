import { ConfigError, loadConfig } from '@tollgate/platform';
import { gatewayConfigSchema } from './config';

const ENV = {
  TOLLGATE_INTERNAL_TOKEN_SECRET: 'unit-test-secret-0123456789abcdefghij',
  AUTH_URL: 'http://127.0.0.1:3001',
  BILLING_URL: 'http://127.0.0.1:3002',
  RELAY_URL: 'http://127.0.0.1:3003',
  CHAT_URL: 'http://127.0.0.1:3004',
  ADMIN_URL: 'http://127.0.0.1:3005',
};

describe('gateway configuration', () => {
  it('trusts no proxy by default', () => {
    expect(loadConfig(gatewayConfigSchema, ENV).GATEWAY_TRUSTED_PROXIES).toEqual([]);
  });

  it('reads the trusted proxies as a list', () => {
    const config = loadConfig(gatewayConfigSchema, {
      ...ENV,
      GATEWAY_TRUSTED_PROXIES: ' 10.0.0.0/8, loopback ,',
    });

    expect(config.GATEWAY_TRUSTED_PROXIES).toEqual(['10.0.0.0/8', 'loopback']);
  });

  it('refuses to start with a trusted proxy that is not an address, naming the variable', () => {
    const load = () => loadConfig(gatewayConfigSchema, { ...ENV, GATEWAY_TRUSTED_PROXIES: 'ingress.local' });

    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/GATEWAY_TRUSTED_PROXIES: .*ingress\.local/);
  });

  it('takes a backend on a Unix socket as unix: and its absolute path', () => {
    const config = loadConfig(gatewayConfigSchema, {
      ...ENV,
      RELAY_URL: 'unix:/var/lib/tollgate/relay.sock',
    });

    expect(config.RELAY_URL).toBe('unix:/var/lib/tollgate/relay.sock');
  });

  it('refuses a backend address that is neither a URL nor unix: and an absolute path, naming the variable', () => {
    for (const RELAY_URL of ['unix:relay.sock', '127.0.0.1:3003']) {
      const load = () => loadConfig(gatewayConfigSchema, { ...ENV, RELAY_URL });
      expect(load).toThrow(/RELAY_URL: must be a URL like .* or unix:\/path/);
    }
  });
});
