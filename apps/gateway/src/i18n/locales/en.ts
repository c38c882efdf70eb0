import type { GatewayMessageKey } from '../message-keys';

/** English: the model APIs' answers (/v1, /v1beta) always, /api's when the caller asks for it. */
export const en: Record<GatewayMessageKey, string> = {
  no_route: 'No route for {method} {path}',
  rate_limited: 'Too many requests, slow down',
  session_unchecked: 'The session could not be checked',
  service_unavailable: 'The {service} service is unavailable',
  service_timeout: 'The {service} service did not answer in time',
  body_too_large: 'Request body is larger than {limit} bytes',
};
