import { HttpException } from '@nestjs/common';
import { ERROR_STATUS, type ErrorCode } from '@tollgate/contracts';

export type ErrorDetails = Readonly<Record<string, unknown>>;

/**
 * An expected failure with a code from contracts. Its message is shown to the caller, so it must be
 * written for them; `details` feed protocol-specific renderers (e.g. OpenAI's `param`) and are never logged.
 */
export class AppException extends HttpException {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message, ERROR_STATUS[code]);
    this.name = 'AppException';
  }
}
