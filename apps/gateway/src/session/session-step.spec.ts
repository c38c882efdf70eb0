import {
  ErrorCode,
  Role,
  SESSION_COOKIE_NAME,
  type RouteEntry,
  type SessionIdentity,
} from '@tollgate/contracts';
import { INTERNAL_IDENTITY_HEADER, verifyInternalToken } from '@tollgate/platform';
import { SessionResolver } from './session-resolver';
import { SessionStep } from './session-step';

const SECRET = 'session-step-secret-0123456789abcdef';
const user: SessionIdentity = { userId: 7, role: Role.User, group: 'vip', sessionId: 'sid-7' };
const root: SessionIdentity = { userId: 1, role: Role.Root, group: 'default', sessionId: 'sid-1' };
const sessions: Record<string, SessionIdentity> = { 'user-cookie': user, 'root-cookie': root };
const accessTokens: Record<string, SessionIdentity> = {
  'Bearer pat-of-7': { ...user, sessionId: 'pat-7', via: 'access_token' },
};

const step = new SessionStep(
  new SessionResolver(
    (request) =>
      Promise.resolve(
        ('session' in request ? sessions[request.session] : accessTokens[request.access_token]) ?? null,
      ),
    0,
  ),
  SECRET,
);
const authRoute: RouteEntry = { prefix: '/api/user', service: 'auth' };
const adminRoute: RouteEntry = { prefix: '/api/channel', service: 'admin', minRole: Role.Admin };
const relayRoute: RouteEntry = { prefix: '/v1', service: 'relay' };

const withSession = (cookie: string, newApiUser?: string) => ({
  cookie: `lang=ru; ${SESSION_COOKIE_NAME}=${cookie}`,
  ...(newApiUser === undefined ? {} : { 'new-api-user': newApiUser }),
});

describe('SessionStep', () => {
  it('forwards a signed-in caller with a signed identity', async () => {
    const decision = await step.decide('/api/user/self', authRoute, withSession('user-cookie', '7'));

    expect(decision.kind).toBe('forward');
    const token = (decision as { headers: Record<string, string> }).headers[INTERNAL_IDENTITY_HEADER]!;
    await expect(verifyInternalToken(token, SECRET)).resolves.toEqual({ ...user, via: 'session' });
  });

  it('forwards a script with a personal access token as Authorization, signed as via access_token', async () => {
    const headers = { authorization: 'Bearer pat-of-7', 'new-api-user': '7' };
    const decision = await step.decide('/api/user/self', authRoute, headers);

    expect(decision.kind).toBe('forward');
    const token = (decision as { headers: Record<string, string> }).headers[INTERNAL_IDENTITY_HEADER]!;
    await expect(verifyInternalToken(token, SECRET)).resolves.toEqual({
      userId: 7,
      role: Role.User,
      group: 'vip',
      sessionId: 'pat-7',
      via: 'access_token',
    });
  });

  it('does not ask auth about an sk- API key on /api: it is no access token', async () => {
    const asked: unknown[] = [];
    const askingStep = new SessionStep(
      new SessionResolver((request) => {
        asked.push(request);
        return Promise.resolve(null);
      }, 0),
      SECRET,
    );
    expect(
      await askingStep.decide('/api/user/self', authRoute, {
        authorization: 'Bearer sk-abc',
        'new-api-user': '7',
      }),
    ).toEqual({ kind: 'forward', headers: {} });
    expect(asked).toEqual([]);
  });

  it('holds an access token to New-Api-User too, and ignores an unknown one', async () => {
    expect(
      await step.decide('/api/user/self', authRoute, { authorization: 'Bearer pat-of-7' }),
    ).toMatchObject({
      kind: 'refuse',
      status: 401,
      code: ErrorCode.UserHeaderMismatch,
    });
    expect(await step.decide('/api/user/self', authRoute, { authorization: 'Bearer nope' })).toEqual({
      kind: 'forward',
      headers: {},
    });
  });

  it('forwards anonymously without a cookie or with an unknown one', async () => {
    expect(await step.decide('/api/user/self', authRoute, {})).toEqual({ kind: 'forward', headers: {} });
    expect(await step.decide('/api/user/self', authRoute, withSession('gone', '7'))).toEqual({
      kind: 'forward',
      headers: {},
    });
  });

  it.each([undefined, '8', '07', 'seven'])('refuses New-Api-User %p for user 7 with 401', async (header) => {
    expect(await step.decide('/api/user/self', authRoute, withSession('user-cookie', header))).toMatchObject({
      kind: 'refuse',
      status: 401,
      code: ErrorCode.UserHeaderMismatch,
    });
  });

  it.each([
    '/api/user/login',
    '/api/user/logout?x=1',
    '/api/verification?email=a@b.cd',
    '/api/user/register',
  ])('ignores a session without a matching New-Api-User on %s', async (path) => {
    expect(await step.decide(path, authRoute, withSession('user-cookie'))).toEqual({
      kind: 'forward',
      headers: {},
    });
  });

  it('enforces the route’s minimum role: 401 without a session, 403 below it, forwarded at or above it', async () => {
    expect(await step.decide('/api/channel/', adminRoute, {})).toMatchObject({ kind: 'refuse', status: 401 });
    expect(await step.decide('/api/channel/', adminRoute, withSession('user-cookie', '7'))).toMatchObject({
      kind: 'refuse',
      status: 403,
      code: ErrorCode.Forbidden,
    });
    expect((await step.decide('/api/channel/', adminRoute, withSession('root-cookie', '1'))).kind).toBe(
      'forward',
    );
  });

  it('refuses in the caller’s language: Russian without Accept-Language, English when asked', async () => {
    const english = { 'accept-language': 'en-US,en;q=0.9' };
    const userSession = withSession('user-cookie', '7');
    const mismatch = withSession('user-cookie', '8');
    const messages = async (headers: Record<string, string>) =>
      [
        await step.decide('/api/channel/', adminRoute, headers),
        await step.decide('/api/channel/', adminRoute, { ...userSession, ...headers }),
        await step.decide('/api/user/self', authRoute, { ...mismatch, ...headers }),
      ].map((decision) => (decision.kind === 'refuse' ? decision.message : decision.kind));

    expect(await messages({})).toEqual([
      'Необходимо войти в аккаунт',
      'Недостаточно прав',
      'New-Api-User не совпадает с пользователем, который вошёл в аккаунт',
    ]);
    expect(await messages(english)).toEqual([
      'Authentication required',
      'Insufficient permissions',
      'New-Api-User does not match the signed-in user',
    ]);
  });

  it('leaves the model API to API keys: cookies are not sessions there', async () => {
    expect(await step.decide('/v1/models', relayRoute, withSession('user-cookie'))).toEqual({
      kind: 'forward',
      headers: {},
    });
  });
});
