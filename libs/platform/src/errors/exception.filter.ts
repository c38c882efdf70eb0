import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { requestContextOf } from '../context/request-context.hook';
import { AppException } from './app.exception';
import { assertUnreachable } from './assert-unreachable';
import { describeError, type DescribedError } from './describe-error';
import { selectErrorRenderer, type ErrorRendererRoute } from './error-renderer';

/**
 * Answers every error in the shape its route's callers expect (the envelope unless a renderer is registered
 * for the path's prefix). Unexpected errors are logged with their stack under an error id the caller sees;
 * nothing of the request body is ever logged.
 */
@Catch()
export class PlatformExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly renderers: readonly ErrorRendererRoute[] = [],
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const described = describeError(exception);
    if (host.getType() !== 'http') {
      this.log(described, exception, {});
      return;
    }
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    this.log(described, exception, {
      requestId: requestContextOf(request)?.requestId ?? request.id,
      method: request.method,
      route: request.routeOptions.url,
    });

    // A stream already under way cannot change its status; cutting it tells the client it is incomplete.
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    const rendered = selectErrorRenderer(this.renderers, request.url).render(described);
    const ownHeaders = exception instanceof AppException ? exception.headers : undefined;
    void reply
      .status(rendered.status)
      .headers({ ...ownHeaders, ...rendered.headers })
      .send(rendered.body);
  }

  private log(described: DescribedError, exception: unknown, fields: Record<string, unknown>): void {
    const { code, status, errorId, severity } = described;
    const line = { ...fields, code, status, ...(errorId ? { errorId } : {}) };
    switch (severity) {
      case 'unexpected':
        this.logger.error({ ...line, err: exception }, 'unexpected error');
        return;
      case 'degraded':
        this.logger.warn({ ...line, reason: described.message }, 'request failed');
        return;
      case 'expected':
        // The caller has the message; it may echo their input (a URL with ?key=, a field value), so it stays out.
        this.logger.debug(line, 'request refused');
        return;
      default:
        assertUnreachable(severity, 'error severity');
    }
  }
}
