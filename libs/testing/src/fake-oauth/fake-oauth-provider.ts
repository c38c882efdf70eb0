import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeOAuthProviderName = 'github' | 'google' | 'discord';

/** A person at the provider: the id is what the provider calls them for good, the name for show. */
export interface FakeOAuthAccount {
  id: string;
  name: string;
}

export interface FakeOAuthEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  profileUrl: string;
}

export interface FakeOAuthClient {
  clientId: string;
  clientSecret: string;
}

/** Each provider's profile path and answer shape (as their public docs describe them). */
const PROFILES: Record<FakeOAuthProviderName, { path: string; body: (account: FakeOAuthAccount) => object }> =
  {
    github: {
      path: '/github/user',
      body: (a) => ({ id: Number(a.id) || a.id, login: a.name, name: a.name }),
    },
    google: { path: '/google/userinfo', body: (a) => ({ sub: a.id, name: a.name, given_name: a.name }) },
    discord: {
      path: '/discord/users/@me',
      body: (a) => ({ id: a.id, username: a.name, global_name: a.name }),
    },
  };

/**
 * One HTTP server playing GitHub, Google and Discord for OAuth 2 tests: authorize (redirects back
 * with a code for the account chosen beforehand), token (checks the client and the code, once)
 * and profile (checks the bearer token).
 */
export class FakeOAuthProvider {
  private server?: Server;
  private baseUrl = '';
  private readonly codes = new Map<
    string,
    { provider: FakeOAuthProviderName; account: FakeOAuthAccount; redirectUri: string }
  >();
  private readonly tokens = new Map<string, { provider: FakeOAuthProviderName; account: FakeOAuthAccount }>();
  private readonly nextAccount = new Map<FakeOAuthProviderName, FakeOAuthAccount>();
  /** Token requests seen, for tests that check what the client sent. */
  readonly tokenRequests: { provider: FakeOAuthProviderName; params: URLSearchParams }[] = [];

  constructor(private readonly client: FakeOAuthClient) {}

  get url(): string {
    return this.baseUrl;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.route(req, res).catch(() => this.json(res, 500, { error: 'server_error' }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  endpoints(provider: FakeOAuthProviderName): FakeOAuthEndpoints {
    return {
      authorizeUrl: `${this.baseUrl}/${provider}/authorize`,
      tokenUrl: `${this.baseUrl}/${provider}/token`,
      profileUrl: `${this.baseUrl}${PROFILES[provider].path}`,
    };
  }

  /**
   * Every provider pointed at this fake with its client, as the services read them (auth signs in with
   * them, admin lists them in /api/status); callbacks go to `redirectBaseUrl`.
   */
  serviceEnv(redirectBaseUrl: string): Record<string, string> {
    const env: Record<string, string> = { OAUTH_REDIRECT_BASE_URL: redirectBaseUrl };
    for (const name of Object.keys(PROFILES) as FakeOAuthProviderName[]) {
      const prefix = name.toUpperCase();
      const endpoints = this.endpoints(name);
      env[`${prefix}_CLIENT_ID`] = this.client.clientId;
      env[`${prefix}_CLIENT_SECRET`] = this.client.clientSecret;
      env[`${prefix}_AUTHORIZE_URL`] = endpoints.authorizeUrl;
      env[`${prefix}_TOKEN_URL`] = endpoints.tokenUrl;
      env[`${prefix}_PROFILE_URL`] = endpoints.profileUrl;
    }
    return env;
  }

  /** The account the next authorize call of `provider` signs in as. */
  signInAs(provider: FakeOAuthProviderName, account: FakeOAuthAccount): void {
    this.nextAccount.set(provider, account);
  }

  /** A code for `account`, as the authorize redirect would carry it, without the browser round trip. */
  issueCode(provider: FakeOAuthProviderName, account: FakeOAuthAccount, redirectUri = ''): string {
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, { provider, account, redirectUri });
    return code;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const [, provider, action] = url.pathname.split('/') as [string, string, string];
    if (!isProvider(provider)) return this.json(res, 404, { error: 'not_found' });
    if (req.method === 'GET' && action === 'authorize') return this.authorize(provider, url, res);
    if (req.method === 'POST' && action === 'token') return this.token(provider, req, res);
    if (req.method === 'GET' && url.pathname === PROFILES[provider].path)
      return this.profile(provider, req, url, res);
    this.json(res, 404, { error: 'not_found' });
  }

  private authorize(provider: FakeOAuthProviderName, url: URL, res: ServerResponse): void {
    const redirectUri = url.searchParams.get('redirect_uri') ?? '';
    const account = this.nextAccount.get(provider);
    if (url.searchParams.get('client_id') !== this.client.clientId || !redirectUri || !account) {
      return this.json(res, 400, { error: 'invalid_request' });
    }
    const back = new URL(redirectUri);
    back.searchParams.set('code', this.issueCode(provider, account, redirectUri));
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private async token(
    provider: FakeOAuthProviderName,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const params = new URLSearchParams(await bodyOf(req));
    this.tokenRequests.push({ provider, params });
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [basicId, basicSecret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':') : [];
    const clientId = params.get('client_id') ?? basicId;
    const clientSecret = params.get('client_secret') ?? basicSecret;
    if (clientId !== this.client.clientId || clientSecret !== this.client.clientSecret) {
      return this.json(res, 401, { error: 'invalid_client' });
    }
    const grant = this.codes.get(params.get('code') ?? '');
    if (!grant || grant.provider !== provider) return this.json(res, 400, { error: 'invalid_grant' });
    this.codes.delete(params.get('code') ?? '');
    const accessToken = randomBytes(16).toString('hex');
    this.tokens.set(accessToken, { provider, account: grant.account });
    this.json(res, 200, { access_token: accessToken, token_type: 'bearer', scope: '' });
  }

  private profile(
    provider: FakeOAuthProviderName,
    req: IncomingMessage,
    url: URL,
    res: ServerResponse,
  ): void {
    const bearer =
      /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token');
    const grant = this.tokens.get(bearer ?? '');
    if (!grant || grant.provider !== provider) return this.json(res, 401, { message: 'Bad credentials' });
    this.json(res, 200, PROFILES[provider].body(grant.account));
  }

  private json(res: ServerResponse, status: number, body: object): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

const isProvider = (value: string): value is FakeOAuthProviderName => value in PROFILES;

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
