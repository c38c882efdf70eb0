import { randomUUID } from 'node:crypto';
import { HttpException } from '@nestjs/common';
import { ErrorCode } from '@tollgate/contracts';
import { ZodError } from 'zod';
import { AppException } from './app.exception';
import { assertUnreachable } from './assert-unreachable';
import type { ErrorReport } from './error-renderer';

/** How loudly an error is logged: expected ones quietly, unexpected ones with their stack. */
export type ErrorSeverity = 'expected' | 'degraded' | 'unexpected';

export interface DescribedError extends ErrorReport {
  readonly severity: ErrorSeverity;
}

type ClassifiedError =
  | { kind: 'app'; error: AppException }
  | { kind: 'validation'; error: ZodError }
  | { kind: 'http'; error: HttpException }
  | { kind: 'unknown'; error: unknown };

const classify = (error: unknown): ClassifiedError => {
  if (error instanceof AppException) return { kind: 'app', error };
  if (error instanceof ZodError) return { kind: 'validation', error };
  if (error instanceof HttpException) return { kind: 'http', error };
  return { kind: 'unknown', error };
};

/** The contracts code closest to a bare HTTP status (Nest's own exceptions and the adapter's carry only that). */
export const errorCodeForStatus = (status: number): ErrorCode => {
  switch (status) {
    case 400:
      return ErrorCode.ValidationFailed;
    case 401:
      return ErrorCode.Unauthenticated;
    case 403:
      return ErrorCode.Forbidden;
    case 404:
      return ErrorCode.NotFound;
    case 409:
      return ErrorCode.Conflict;
    case 413:
      return ErrorCode.PayloadTooLarge;
    case 429:
      return ErrorCode.RateLimited;
    case 502:
      return ErrorCode.UpstreamServiceDown;
    case 503:
      return ErrorCode.ServiceUnavailable;
    case 504:
      return ErrorCode.UpstreamTimeout;
    default:
      return status < 500 ? ErrorCode.ValidationFailed : ErrorCode.Internal;
  }
};

/** `field.sub: reason; other: reason`, the shape a person reading a 400 can act on. */
export const zodErrorMessage = (error: ZodError): string =>
  error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');

const httpExceptionMessage = (error: HttpException): string => {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return error.message;
};

/** Fixed wording where the adapter's own message is technical. */
const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  413: 'Request body is too large',
};

const unexpected = (): DescribedError => {
  const errorId = randomUUID();
  return {
    code: ErrorCode.Internal,
    status: 500,
    message: `Internal server error (error id: ${errorId})`,
    errorId,
    severity: 'unexpected',
  };
};

/** What to answer and how loudly to log for anything a handler, guard, pipe or the adapter threw. */
export const describeError = (error: unknown): DescribedError => {
  const classified = classify(error);
  switch (classified.kind) {
    case 'app': {
      const { code, message, details } = classified.error;
      const status = classified.error.getStatus();
      return { code, status, message, details, severity: status >= 500 ? 'degraded' : 'expected' };
    }
    case 'validation':
      return {
        code: ErrorCode.ValidationFailed,
        status: 400,
        message: zodErrorMessage(classified.error),
        severity: 'expected',
      };
    case 'http': {
      const status = classified.error.getStatus();
      if (status === 500) return unexpected();
      return {
        code: errorCodeForStatus(status),
        status,
        message: STATUS_MESSAGES[status] ?? httpExceptionMessage(classified.error),
        severity: status >= 500 ? 'degraded' : 'expected',
      };
    }
    case 'unknown':
      return unexpected();
    default:
      return assertUnreachable(classified, 'error kind');
  }
};
