import { ErrorCode } from '@tollgate/contracts';

/** Relay's refusal status as the chat's error code (the envelope carries the message, the status its kind). */
export function errorCodeOfRelayStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return ErrorCode.ValidationFailed;
    case 402:
      return ErrorCode.InsufficientQuota;
    case 403:
      return ErrorCode.Forbidden;
    case 404:
      return ErrorCode.ModelNotFound;
    case 429:
      return ErrorCode.RateLimited;
    default:
      return ErrorCode.UpstreamError;
  }
}
