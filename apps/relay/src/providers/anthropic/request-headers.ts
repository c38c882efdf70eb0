import { anthropicFieldsOf, type ChatCompletionRequest } from '../../canonical';
import { JSON_CONTENT_TYPE } from '../upstream-request';
import { ANTHROPIC_VERSION } from './types';

/**
 * The headers of a call to Anthropic for this request: the key, the API version, and the client's
 * `anthropic-beta` when an Anthropic client sent one (no other family's channel is sent it).
 */
export function anthropicRequestHeaders(
  request: ChatCompletionRequest,
  apiKey: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': JSON_CONTENT_TYPE,
    'x-api-key': apiKey,
    'anthropic-version': ANTHROPIC_VERSION,
  };
  const beta = anthropicFieldsOf(request)?.beta;
  if (beta !== undefined) headers['anthropic-beta'] = beta;
  return headers;
}
