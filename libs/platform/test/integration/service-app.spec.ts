import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Body, Controller, Get, Injectable, Module, Param, Post, type OnModuleInit } from '@nestjs/common';
import { ErrorCode } from '@tollgate/contracts';
import {
  AppException,
  CurrentIdentity,
  HealthRegistry,
  Public,
  Role,
  Roles,
  baseServiceConfigSchema,
  createLogger,
  createServiceApp,
  currentCorrelationHeaders,
  loadConfig,
  signInternalToken,
  type ErrorRenderer,
  type Identity,
  type ServiceApp,
  LISTEN_BACKLOG,
} from '../../src';
import { z } from 'zod';

/** The accept queue of the socket listening on `port`, as the kernel reports it (ss's Send-Q). */
function listenBacklog(port: number): number {
  const line = execFileSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' }).trim();
  return Number(line.split(/\s+/)[2]);
}
/** What the kernel grants a listen() asking for `backlog`. */
const granted = (backlog: number) =>
  Math.min(backlog, Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8')));

const SECRET = 'integration-secret-that-is-long-enough-0123456789';
const PROMPT = 'tell me the launch codes 7f3a9c';

@Controller('probe')
class ProbeController {
  @Public()
  @Get('context')
  context(): unknown {
    return currentCorrelationHeaders();
  }

  @Public()
  @Post('context')
  contextAfterBody(@Body() _body: unknown): unknown {
    return currentCorrelationHeaders();
  }

  @Public()
  @Get('users/:id')
  user(@Param('id') id: string): unknown {
    return { id };
  }

  @Public()
  @Get('conflict')
  conflict(): never {
    throw new AppException(ErrorCode.Conflict, 'That name is taken');
  }

  @Public()
  @Post('crash')
  crash(@Body() _body: unknown): never {
    throw new Error('database exploded');
  }

  @Public()
  @Post('validate')
  validate(@Body() body: unknown): unknown {
    return z.object({ email: z.string().email() }).parse(body);
  }

  @Get('me')
  me(@CurrentIdentity() identity: Identity): unknown {
    return identity;
  }

  @Roles(Role.Admin)
  @Get('admin')
  admin(): unknown {
    return { admin: true };
  }
}

@Controller('v1')
class ProtocolController {
  @Public()
  @Get('fail')
  fail(): never {
    throw new AppException(ErrorCode.ModelNotFound, 'No such model');
  }
}

@Injectable()
class DatabaseProbe implements OnModuleInit {
  constructor(private readonly health: HealthRegistry) {}

  onModuleInit(): void {
    this.health.registerReadinessCheck('database', () => Promise.reject(new Error('connection refused')));
  }
}

@Module({ controllers: [ProbeController, ProtocolController], providers: [DatabaseProbe] })
class ProbeModule {}

const openAiStyle: ErrorRenderer = {
  render: (error) => ({
    status: error.status,
    body: { error: { message: error.message, code: error.code } },
  }),
};

describe('createServiceApp', () => {
  const logLines: string[] = [];
  let service: ServiceApp;
  let base: string;

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const token = (role: Role) =>
    signInternalToken({ userId: 42, role, via: 'session', sessionId: 's-1' }, SECRET);

  beforeAll(async () => {
    const config = loadConfig(baseServiceConfigSchema, {
      SERVICE_NAME: 'probe',
      PORT: '0',
      LOG_LEVEL: 'debug',
      TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET,
    });
    const logger = createLogger({
      service: 'probe',
      level: config.LOG_LEVEL,
      destination: { write: (line: string) => void logLines.push(line) },
    });
    service = await createServiceApp(ProbeModule, {
      service: 'probe',
      config,
      logger,
      bodyLimit: 4096,
      errorRenderers: [{ prefix: '/v1', renderer: openAiStyle }],
    });
    const port = await service.listen();
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(() => service.close());

  it("listens with a longer accept queue than Node's 511, so a burst of new connections is not dropped", () => {
    expect(LISTEN_BACKLOG).toBeGreaterThan(511);
    expect(listenBacklog(Number(new URL(base).port))).toBe(granted(LISTEN_BACKLOG));
  });

  it('answers liveness with status ok', async () => {
    const response = await get('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('treats a trailing slash as the same route, as new-api clients send it', async () => {
    const response = await get('/health/');
    expect(response.status).toBe(200);
  });

  it('answers readiness with 503 naming the failing check', async () => {
    const response = await get('/health/ready');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: 'unavailable',
      failures: [{ check: 'database', reason: 'connection refused' }],
    });
  });

  it('records request durations by route template, never by raw URL', async () => {
    expect((await get('/probe/users/98765')).status).toBe(200);
    const response = await get('/metrics');
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(
      /tollgate_http_request_duration_seconds_count\{service="probe",method="GET",route="\/probe\/users\/:id",status="200"\} 1/,
    );
    expect(text).not.toContain('98765');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('records requests no route matched under one label, whatever their path', async () => {
    expect((await get('/no/such/path-1')).status).toBe(404);
    expect((await get('/no/such/path-2')).status).toBe(404);
    const text = await (await get('/metrics')).text();
    expect(text).toMatch(
      /tollgate_http_request_duration_seconds_count\{service="probe",method="GET",route="unmatched",status="404"\} 2/,
    );
    expect(text).not.toContain('path-1');
  });

  it('logs one access line per request with its route template, the caller when known, never the URL', async () => {
    logLines.length = 0;
    await get('/probe/users/24680', { 'x-request-id': 'access-1' });
    await get('/probe/me', { 'x-tollgate-identity': await token(Role.User), 'x-request-id': 'access-2' });
    await get('/no/such/13579', { 'x-request-id': 'access-3' });
    const lines = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line['msg'] === 'request completed');
    expect(lines).toEqual([
      expect.objectContaining({
        requestId: 'access-1',
        method: 'GET',
        route: '/probe/users/:id',
        status: 200,
      }),
      expect.objectContaining({ requestId: 'access-2', route: '/probe/me', status: 200, userId: 42 }),
      expect.objectContaining({ requestId: 'access-3', route: 'unmatched', status: 404 }),
    ]);
    expect(logLines.join('\n')).not.toMatch(/24680|13579/);
  });

  it('echoes a sane x-request-id and replaces an odd one', async () => {
    const echoed = await get('/probe/context', { 'x-request-id': 'req-abc.123' });
    expect(echoed.headers.get('x-request-id')).toBe('req-abc.123');
    expect(await echoed.json()).toEqual({ 'x-request-id': 'req-abc.123', 'x-correlation-id': 'req-abc.123' });

    const replaced = await get('/probe/context', { 'x-request-id': 'has spaces <script>' });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the request context in handlers that read a body', async () => {
    const response = await post('/probe/context', '{"a":1}', {
      'x-request-id': 'after-body-1',
      'x-correlation-id': 'flow-7',
    });
    expect(await response.json()).toEqual({ 'x-request-id': 'after-body-1', 'x-correlation-id': 'flow-7' });
  });

  it('takes a body-less POST that says it is JSON as no body, and still refuses broken JSON', async () => {
    for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
      const empty = await fetch(`${base}/probe/context/`, {
        method: 'POST',
        headers: { 'content-type': contentType },
      });
      expect(empty.status).toBe(201);
    }
    const needsBody = await post('/probe/validate', '');
    const broken = await post('/probe/validate', '{"email":');

    expect(needsBody.status).toBe(400);
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ success: false });
  });

  it('renders an AppException as the envelope with its status', async () => {
    const response = await get('/probe/conflict');
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ success: false, message: 'That name is taken' });
  });

  it('renders errors under a registered prefix in that protocol shape', async () => {
    const response = await get('/v1/fail');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { message: 'No such model', code: 'model_not_found' } });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const response = await get('/nowhere');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, message: 'Cannot GET /nowhere' });
  });

  it("answers a path the router refuses (bad percent-encoding, an overlong parameter) in the caller's protocol", async () => {
    const badUrl = await get('/probe/users/%FF%FE');
    expect(badUrl.status).toBe(400);
    expect(await badUrl.json()).toEqual({ success: false, message: 'The request path is not a valid URL' });

    const longParam = await get(`/probe/users/${'x'.repeat(3000)}`);
    expect(longParam.status).toBe(414);
    expect(await longParam.json()).toEqual({ success: false, message: 'The request path is too long' });

    const protocol = await get('/v1/%FF');
    expect(protocol.status).toBe(400);
    expect(await protocol.json()).toEqual({
      error: { message: 'The request path is not a valid URL', code: 'validation_failed' },
    });
  });

  it("answers a request whose headers are too large for the parser in the caller's protocol", async () => {
    const api = await get(`/probe/context?q=${'x'.repeat(20_000)}`);
    expect(api.status).toBe(431);
    expect(await api.json()).toEqual({ success: false, message: 'The request headers are too large' });

    const protocol = await get('/v1/fail', { 'x-padding': 'x'.repeat(20_000) });
    expect(protocol.status).toBe(431);
    expect(await protocol.json()).toEqual({
      error: { message: 'The request headers are too large', code: 'validation_failed' },
    });
  });

  it('answers an oversized body with 413', async () => {
    const response = await post('/probe/validate', JSON.stringify({ email: 'x'.repeat(8000) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, message: 'Request body is too large' });
  });

  it('answers a zod failure with 400 naming the field', async () => {
    const response = await post('/probe/validate', JSON.stringify({ email: 'not-an-email' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, message: 'email: Invalid email' });
  });

  it('answers an unexpected error with 500 and an error id that is logged with the stack, not the body', async () => {
    logLines.length = 0;
    const response = await post(
      '/probe/crash',
      JSON.stringify({ messages: [{ role: 'user', content: PROMPT }] }),
    );
    expect(response.status).toBe(500);
    const body = (await response.json()) as { success: boolean; message: string };
    const errorId = /error id: ([0-9a-f-]{36})/.exec(body.message)?.[1];
    expect(body.success).toBe(false);
    expect(errorId).toBeDefined();

    const logged = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const report = logged.find((line) => line['errorId'] === errorId);
    expect(report).toMatchObject({ level: 'error', status: 500, err: { message: 'database exploded' } });
    expect(JSON.stringify(report)).toContain('at ProbeController.crash');
    expect(logLines.join('\n')).not.toContain(PROMPT);
  });

  it('refuses a protected route without a valid internal token, in the caller’s language', async () => {
    const missing = await get('/probe/me');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ success: false, message: 'Необходимо войти в аккаунт' });
    const missingInEnglish = await get('/probe/me', { 'accept-language': 'en' });
    expect(await missingInEnglish.json()).toEqual({ success: false, message: 'Authentication required' });

    const forged = await get('/probe/me', { 'x-tollgate-identity': `${await token(Role.User)}x` });
    expect(forged.status).toBe(401);
  });

  it('hands the verified identity to a protected route', async () => {
    const response = await get('/probe/me', { 'x-tollgate-identity': await token(Role.User) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ userId: 42, role: Role.User, via: 'session', sessionId: 's-1' });
  });

  it('enforces the minimum role', async () => {
    expect((await get('/probe/admin', { 'x-tollgate-identity': await token(Role.User) })).status).toBe(403);
    expect((await get('/probe/admin', { 'x-tollgate-identity': await token(Role.Root) })).status).toBe(200);
  });
});

describe('createServiceApp without an async-local request context', () => {
  let service: ServiceApp;
  let base: string;

  beforeAll(async () => {
    const config = loadConfig(baseServiceConfigSchema, {
      SERVICE_NAME: 'forwarder',
      PORT: '0',
      LOG_LEVEL: 'warn',
      TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET,
    });
    service = await createServiceApp(ProbeModule, {
      service: 'forwarder',
      config,
      logger: createLogger({
        service: 'forwarder',
        level: config.LOG_LEVEL,
        destination: { write: () => true },
      }),
      asyncRequestContext: false,
      nestMiddleware: false,
    });
    base = `http://127.0.0.1:${await service.listen()}`;
  });

  afterAll(() => service.close());

  it('still names each request by its id, but enters no context its handlers could read', async () => {
    const echoed = await fetch(`${base}/probe/context`, { headers: { 'x-request-id': 'req-xyz.9' } });
    expect(echoed.headers.get('x-request-id')).toBe('req-xyz.9');
    expect(await echoed.json()).toEqual({});
    const generated = await fetch(`${base}/probe/users/1`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/route="\/probe\/users\/:id",status="200"\} 1/);
  });
});
