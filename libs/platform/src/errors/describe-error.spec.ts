import {
  BadRequestException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { ERROR_STATUS, ErrorCode } from '@tollgate/contracts';
import { z } from 'zod';
import { AppException } from './app.exception';
import { describeError, errorCodeForStatus } from './describe-error';

describe('describeError', () => {
  it('keeps an AppException code, its contracts status, message and details', () => {
    const described = describeError(
      new AppException(ErrorCode.InsufficientQuota, 'Balance too low', { needed: 5 }),
    );
    expect(described).toEqual({
      code: ErrorCode.InsufficientQuota,
      status: ERROR_STATUS[ErrorCode.InsufficientQuota],
      message: 'Balance too low',
      details: { needed: 5 },
      severity: 'expected',
    });
  });

  it('logs AppExceptions with a 5xx status as degraded, not as unexpected', () => {
    expect(
      describeError(new AppException(ErrorCode.UpstreamTimeout, 'Upstream took too long')),
    ).toMatchObject({
      status: 504,
      severity: 'degraded',
      message: 'Upstream took too long',
    });
  });

  it('turns a zod error into a 400 naming each field', () => {
    const result = z
      .object({ email: z.string().email(), profile: z.object({ age: z.number().min(18) }) })
      .safeParse({ email: 'x', profile: { age: 3 } });
    if (result.success) throw new Error('expected a failure');
    expect(describeError(result.error)).toEqual({
      code: ErrorCode.ValidationFailed,
      status: 400,
      message: 'email: Invalid email; profile.age: Number must be greater than or equal to 18',
      severity: 'expected',
    });
  });

  it("maps Nest's HTTP exceptions by status, keeping their message", () => {
    expect(describeError(new NotFoundException('Cannot GET /x'))).toMatchObject({
      code: ErrorCode.NotFound,
      status: 404,
      message: 'Cannot GET /x',
    });
    expect(describeError(new BadRequestException(['a is required', 'b is required']))).toMatchObject({
      code: ErrorCode.ValidationFailed,
      message: 'a is required; b is required',
    });
    expect(describeError(new HttpException('Unsupported Media Type: text/csv', 415))).toMatchObject({
      code: ErrorCode.ValidationFailed,
      status: 415,
    });
  });

  it("answers the adapter's body-limit error with 413 in plain words", () => {
    expect(describeError(new PayloadTooLargeException('FST_ERR_CTP_BODY_TOO_LARGE'))).toEqual({
      code: ErrorCode.PayloadTooLarge,
      status: 413,
      message: 'Request body is too large',
      severity: 'expected',
    });
  });

  it('hides unknown errors behind a generic message with an error id', () => {
    const described = describeError(new TypeError("Cannot read properties of undefined (reading 'apiKey')"));
    expect(described).toMatchObject({ code: ErrorCode.Internal, status: 500, severity: 'unexpected' });
    expect(described.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(described.message).toBe(`Internal server error (error id: ${described.errorId})`);
    expect(describeError('a thrown string')).toMatchObject({ status: 500, severity: 'unexpected' });
    expect(describeError(new InternalServerErrorException('db password is wrong'))).toMatchObject({
      status: 500,
      message: expect.not.stringContaining('password'),
    });
  });

  it('gives each status a code', () => {
    expect(errorCodeForStatus(401)).toBe(ErrorCode.Unauthenticated);
    expect(errorCodeForStatus(403)).toBe(ErrorCode.Forbidden);
    expect(errorCodeForStatus(409)).toBe(ErrorCode.Conflict);
    expect(errorCodeForStatus(429)).toBe(ErrorCode.RateLimited);
    expect(errorCodeForStatus(503)).toBe(ErrorCode.ServiceUnavailable);
    expect(errorCodeForStatus(501)).toBe(ErrorCode.Internal);
  });
});
