/**
 * Every error a service may answer with, by code. One mapping (ERROR_STATUS) gives each its HTTP
 * status; the exception filter turns a code into the envelope or the /v1 protocol's error shape.
 */
export enum ErrorCode {
  // generic
  ValidationFailed = 'validation_failed',
  NotFound = 'not_found',
  Conflict = 'conflict',
  Unauthenticated = 'unauthenticated',
  Forbidden = 'forbidden',
  RateLimited = 'rate_limited',
  PayloadTooLarge = 'payload_too_large',
  ServiceUnavailable = 'service_unavailable',
  Internal = 'internal_error',
  // gateway
  UserHeaderMismatch = 'user_header_mismatch',
  UpstreamServiceDown = 'upstream_service_down',
  // relay
  InvalidApiKey = 'invalid_api_key',
  ModelNotAllowed = 'model_not_allowed',
  IpNotAllowed = 'ip_not_allowed',
  InsufficientQuota = 'insufficient_quota',
  ModelNotFound = 'model_not_found',
  /** The prompt and the answer asked for do not fit the model's context window (an upstream's refusal). */
  ContextLengthExceeded = 'context_length_exceeded',
  NoChannelAvailable = 'no_channel_available',
  UpstreamError = 'upstream_error',
  UpstreamTimeout = 'upstream_timeout',
}

export const ERROR_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.ValidationFailed]: 400,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.Unauthenticated]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.ServiceUnavailable]: 503,
  [ErrorCode.Internal]: 500,
  [ErrorCode.UserHeaderMismatch]: 401,
  [ErrorCode.UpstreamServiceDown]: 502,
  [ErrorCode.InvalidApiKey]: 401,
  [ErrorCode.ModelNotAllowed]: 403,
  [ErrorCode.IpNotAllowed]: 403,
  [ErrorCode.InsufficientQuota]: 402,
  [ErrorCode.ModelNotFound]: 404,
  [ErrorCode.ContextLengthExceeded]: 400,
  [ErrorCode.NoChannelAvailable]: 503,
  [ErrorCode.UpstreamError]: 502,
  [ErrorCode.UpstreamTimeout]: 504,
};
