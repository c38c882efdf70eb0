/** Every refusal the gateway words itself; the texts are in locales/, one file per language. */
export const GATEWAY_MESSAGE_KEYS = [
  'no_route',
  'rate_limited',
  'session_unchecked',
  'service_unavailable',
  'service_timeout',
  'body_too_large',
] as const;
export type GatewayMessageKey = (typeof GATEWAY_MESSAGE_KEYS)[number];
