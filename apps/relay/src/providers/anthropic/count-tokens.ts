import type { TokenCounting } from '../provider-adapter';
import { MalformedUpstreamResponseError } from '../../canonical';
import { baseUrlOrDefault, joinUrl } from '../upstream-request';
import { toAnthropicMessagesRequest } from './chat-request';
import { anthropicRequestHeaders } from './request-headers';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** The fields `/v1/messages/count_tokens` takes; it refuses the others (max_tokens, stream, sampling). */
const COUNTED_FIELDS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'output_config'];

/** `POST /v1/messages/count_tokens` with the Messages request the chat call would send. */
export const anthropicTokenCounting: TokenCounting = {
  request: (request, target) => {
    const messages = toAnthropicMessagesRequest({ ...request, stream: false }, target.upstreamModel);
    const body = Object.fromEntries(
      COUNTED_FIELDS.filter((field) => messages[field] !== undefined).map((field) => [
        field,
        messages[field],
      ]),
    );
    return {
      method: 'POST',
      url: joinUrl(baseUrlOrDefault(target, ANTHROPIC_DEFAULT_BASE_URL), '/v1/messages/count_tokens'),
      headers: anthropicRequestHeaders(request, target.apiKey),
      body: JSON.stringify(body),
      stream: false,
    };
  },
  parse: (body) => {
    const tokens = (body as { input_tokens?: unknown } | null)?.input_tokens;
    if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < 0)
      throw new MalformedUpstreamResponseError('count_tokens answer without input_tokens');
    return tokens;
  },
};
