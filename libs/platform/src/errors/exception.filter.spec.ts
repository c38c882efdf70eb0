import type { ArgumentsHost } from '@nestjs/common';
import { ErrorCode } from '@tollgate/contracts';
import type { Logger } from 'pino';
import { AppException } from './app.exception';
import type { ErrorRenderer } from './error-renderer';
import { PlatformExceptionFilter } from './exception.filter';

interface FakeReply {
  sent: boolean;
  raw: { headersSent: boolean; destroy: jest.Mock };
  status: jest.Mock;
  headers: jest.Mock;
  send: jest.Mock;
}

const fakeReply = (headersSent = false): FakeReply => {
  const reply = {
    sent: false,
    raw: { headersSent, destroy: jest.fn() },
  } as FakeReply;
  reply.status = jest.fn(() => reply);
  reply.headers = jest.fn(() => reply);
  reply.send = jest.fn(() => reply);
  return reply;
};

const httpHost = (url: string, reply: FakeReply): ArgumentsHost => {
  const request = {
    url,
    id: 'req-1',
    method: 'POST',
    routeOptions: { url: '/v1/chat/completions' },
    body: { prompt: 'x' },
  };
  return {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ArgumentsHost;
};

const fakeLogger = () => ({ error: jest.fn(), warn: jest.fn(), debug: jest.fn() });

describe('PlatformExceptionFilter', () => {
  const openai: ErrorRenderer = {
    render: (error) => ({
      status: error.status,
      body: { error: { message: error.message, type: error.code } },
      headers: { 'x-error': '1' },
    }),
  };

  it('renders with the renderer registered for the path and logs expected errors quietly', () => {
    const logger = fakeLogger();
    const reply = fakeReply();
    new PlatformExceptionFilter(logger as unknown as Logger, [{ prefix: '/v1', renderer: openai }]).catch(
      new AppException(ErrorCode.InvalidApiKey, 'Invalid API key'),
      httpHost('/v1/chat/completions', reply),
    );
    expect(reply.status).toHaveBeenCalledWith(401);
    expect(reply.headers).toHaveBeenCalledWith({ 'x-error': '1' });
    expect(reply.send).toHaveBeenCalledWith({
      error: { message: 'Invalid API key', type: 'invalid_api_key' },
    });
    expect(logger.debug).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: 'req-1', code: 'invalid_api_key', status: 401 }),
      'request refused',
    );
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("sends the headers an AppException carries, such as Retry-After, in any protocol's shape", () => {
    const reply = fakeReply();
    new PlatformExceptionFilter(fakeLogger() as unknown as Logger, [
      { prefix: '/v1', renderer: openai },
    ]).catch(
      new AppException(ErrorCode.RateLimited, 'Too many requests', undefined, {
        headers: { 'retry-after': '7' },
      }),
      httpHost('/v1/chat/completions', reply),
    );
    expect(reply.status).toHaveBeenCalledWith(429);
    expect(reply.headers).toHaveBeenCalledWith({ 'retry-after': '7', 'x-error': '1' });
  });

  it('logs an unexpected error with its stack and error id, without the request body', () => {
    const logger = fakeLogger();
    const reply = fakeReply();
    const error = new Error('boom');
    new PlatformExceptionFilter(logger as unknown as Logger).catch(error, httpHost('/api/x', reply));
    const [fields] = logger.error.mock.calls[0] as [Record<string, unknown>];
    expect(fields).toMatchObject({ status: 500, err: error, route: '/v1/chat/completions' });
    expect(fields).not.toHaveProperty('body');
    const sent = reply.send.mock.calls[0]?.[0] as { message: string };
    expect(sent.message).toContain(String(fields['errorId']));
  });

  it('cuts a response whose headers are already sent instead of writing a second one', () => {
    const reply = fakeReply(true);
    new PlatformExceptionFilter(fakeLogger() as unknown as Logger).catch(
      new Error('mid-stream'),
      httpHost('/v1/x', reply),
    );
    expect(reply.raw.destroy).toHaveBeenCalled();
    expect(reply.send).not.toHaveBeenCalled();
  });
});
