import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The JSON text the provider signs: PHP's json_encode, which escapes "/" as "\/" (and keeps
 * other characters as JSON.stringify writes them). Keys stay in the order they arrived.
 */
export function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}

/** md5(base64(json) + api key), hex: how Heleket / Cryptomus sign requests and webhooks. */
export function cryptoSignature(json: string, apiKey: string): string {
  return createHash('md5')
    .update(Buffer.from(json, 'utf8').toString('base64') + apiKey)
    .digest('hex');
}

/** Whether a webhook body carries its own valid `sign` (computed over the body without it). */
export function hasValidCryptoSignature(body: Record<string, unknown>, apiKey: string): boolean {
  const { sign, ...signed } = body;
  if (typeof sign !== 'string' || !/^[0-9a-f]{32}$/i.test(sign)) return false;
  const expected = Buffer.from(cryptoSignature(phpJson(signed), apiKey), 'hex');
  return timingSafeEqual(expected, Buffer.from(sign, 'hex'));
}
