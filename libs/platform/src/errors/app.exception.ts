import { HttpException } from '@nestjs/common';
import { ERROR_STATUS, type ErrorCode } from '@tollgate/contracts';

export type ErrorDetails = Readonly<Record<string, unknown>>;

export interface AppExceptionOptions {
  /** Response headers that belong to the answer, e.g. `Retry-After` on 429 and 503. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An expected failure with a code from contracts. Its message is shown to the caller, so it must be
 * written for them; `details` feed protocol-specific renderers (e.g. OpenAI's `param`) and are never logged.
 */
export class AppException extends HttpException {
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    { headers }: AppExceptionOptions = {},
  ) {
    super(message, ERROR_STATUS[code]);
    this.headers = headers;
    this.name = 'AppException';
  }
}
