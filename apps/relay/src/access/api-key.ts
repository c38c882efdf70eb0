import type { ApiProtocol } from '@tollgate/contracts';

export type HeaderBag = Record<string, string | string[] | undefined>;

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function single(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The API key of a /v1 call, wherever the caller's SDK puts it: `Authorization: Bearer` (OpenAI and
 * most clients), `x-api-key` (Anthropic), `x-goog-api-key` or `?key=` (Gemini). The Bearer form wins
 * so that a client sending several headers is read the same way on every endpoint.
 */
export function extractApiKey(headers: HeaderBag, query: unknown): string | undefined {
  const authorization = single(headers['authorization']);
  const bearer = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  if (bearer !== undefined) return bearer;
  const fromHeader = single(headers['x-api-key']) ?? single(headers['x-goog-api-key']);
  if (fromHeader !== undefined) return fromHeader;
  if (typeof query === 'object' && query !== null) {
    const key = (query as Record<string, unknown>)['key'];
    if (typeof key === 'string' && key.trim() !== '') return key.trim();
  }
  return undefined;
}

/** What a caller is told when the key is missing, in words that fit the header its SDK uses. */
export function missingKeyMessage(protocol: ApiProtocol): string {
  switch (protocol) {
    case 'anthropic':
      return 'No API key: send it in the x-api-key header';
    case 'gemini':
      return 'No API key: send it in the x-goog-api-key header or the key query parameter';
    case 'openai':
      return 'No API key: send it as "Authorization: Bearer sk-..."';
  }
}
