/**
 * What the operator of every test platform configures besides the defaults. The fake upstreams
 * listen on 127.0.0.1, and channels may point at loopback only where the operator allows it
 * (admin refuses non-public base URLs by default: docs/security.md, server-side request forgery).
 */
export const TEST_OPERATOR_ENV: Readonly<Record<string, string>> = {
  CHANNEL_BASE_URL_ALLOWED_RANGES: 'loopback',
};
