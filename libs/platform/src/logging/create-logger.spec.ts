import { runWithRequestContext } from '../context/request-context';
import { Role } from '../identity/role';
import { createLogger, type Logger } from './create-logger';
import { NestPinoLogger } from './nest-logger';
import { REDACTED_FIELDS, redact } from './redaction';

const capture = (
  level: 'info' | 'debug' = 'info',
): { logger: Logger; lines: () => Record<string, unknown>[]; raw: () => string } => {
  const written: string[] = [];
  const logger = createLogger({
    service: 'test',
    level,
    destination: { write: (line: string) => void written.push(line) },
  });
  return {
    logger,
    raw: () => written.join(''),
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
};

/** A distinct value per field, so a leak of any one of them is visible. */
const valueFor = (field: string): string => `leak-${field}-value`;

describe('createLogger redaction', () => {
  it('prints none of the values of the redacted fields, at any depth and in any spelling', () => {
    const { logger, raw, lines } = capture();
    const flat = Object.fromEntries(REDACTED_FIELDS.map((field) => [field, valueFor(field)]));
    logger.info(
      {
        ...flat,
        req: {
          headers: {
            Authorization: 'leak-Authorization',
            'X-Goog-Api-Key': 'leak-goog',
            Cookie: 'leak-Cookie',
          },
        },
        deep: { a: { b: { c: { apiKey: 'leak-apiKey', client_secret: 'leak-client_secret' } } } },
        list: [{ access_token: 'leak-access_token' }, { refreshToken: 'leak-refreshToken' }],
        request: { body: { messages: [{ role: 'user', content: 'leak-prompt-text' }] } },
        route: '/v1/chat/completions',
      },
      'all sensitive fields',
    );
    expect(raw()).not.toMatch(/leak-/);
    const [line] = lines();
    expect(line).toMatchObject({
      authorization: '[REDACTED]',
      'set-cookie': '[REDACTED]',
      messages: '[REDACTED]',
      req: { headers: { Authorization: '[REDACTED]', 'X-Goog-Api-Key': '[REDACTED]', Cookie: '[REDACTED]' } },
      request: { body: '[REDACTED]' },
      route: '/v1/chat/completions',
      msg: 'all sensitive fields',
    });
  });

  it('censors fields attached to errors but keeps their message and stack', () => {
    const { logger, raw, lines } = capture();
    const error = Object.assign(new Error('upstream refused'), { body: 'leak-error-body', status: 502 });
    logger.error({ err: error }, 'call failed');
    expect(raw()).not.toContain('leak-error-body');
    expect(lines()[0]).toMatchObject({
      err: { type: 'Error', message: 'upstream refused', body: '[REDACTED]', status: 502 },
    });
    expect((lines()[0]?.['err'] as { stack: string }).stack).toContain('Error: upstream refused');
  });

  it('censors the bindings of child loggers and their children', () => {
    const { logger, raw } = capture();
    logger
      .child({ token: 'leak-child' })
      .child({ headers: { cookie: 'leak-grandchild' } })
      .info('from a child');
    expect(raw()).not.toMatch(/leak-/);
    expect(raw()).toContain('[REDACTED]');
  });

  it('survives cyclic objects and still censors inside them', () => {
    const { logger, raw } = capture();
    const cyclic: Record<string, unknown> = { name: 'loop', password: 'leak-cyclic' };
    cyclic['self'] = cyclic;
    logger.info({ cyclic }, 'cycle');
    expect(raw()).not.toMatch(/leak-/);
    expect(raw()).toContain('[Circular]');
  });

  it('does not copy objects that hold nothing to redact', () => {
    const clean = { route: '/x', nested: { status: 200 } };
    expect(redact(clean)).toBe(clean);
  });

  it('adds the request context to every line written inside it', () => {
    const { logger, lines } = capture();
    runWithRequestContext(
      { requestId: 'r-1', correlationId: 'c-1', identity: { userId: 7, role: Role.User, via: 'api' } },
      () => logger.info('inside'),
    );
    logger.info('outside');
    expect(lines()[0]).toMatchObject({
      requestId: 'r-1',
      correlationId: 'c-1',
      userId: 7,
      service: 'test',
      level: 'info',
    });
    expect(lines()[1]).not.toHaveProperty('requestId');
  });
});

describe('NestPinoLogger', () => {
  it('writes Nest logs through pino with their context, and start-up chatter only at debug', () => {
    const info = capture('info');
    const nest = new NestPinoLogger(info.logger);
    nest.log('Mapped {/health, GET} route', 'RouterExplorer');
    nest.log('cache warmed', 'CacheService');
    nest.error('handler failed', 'Error: x\n    at y', 'ExceptionsHandler');
    nest.warn({ headers: { authorization: 'leak-nest' } }, 'Interceptor');
    expect(info.raw()).not.toMatch(/leak-/);
    expect(info.lines()).toEqual([
      expect.objectContaining({ level: 'info', msg: 'cache warmed', context: 'CacheService' }),
      expect.objectContaining({
        level: 'error',
        msg: 'handler failed',
        context: 'ExceptionsHandler',
        stack: 'Error: x\n    at y',
      }),
      expect.objectContaining({
        level: 'warn',
        context: 'Interceptor',
        detail: { headers: { authorization: '[REDACTED]' } },
      }),
    ]);

    const debug = capture('debug');
    new NestPinoLogger(debug.logger).log('Nest application successfully started', 'NestApplication');
    expect(debug.lines()).toEqual([expect.objectContaining({ level: 'debug', context: 'NestApplication' })]);
  });
});
