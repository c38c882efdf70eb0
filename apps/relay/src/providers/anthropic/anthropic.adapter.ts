import type { ProviderAdapter } from '../provider-adapter';
import { listingFrom, parseDataIds } from '../models-listing';
import { UnsupportedOperationError } from '../provider-errors';
import { baseUrlOrDefault, joinUrl } from '../upstream-request';
import { toAnthropicMessagesRequest } from './chat-request';
import { fromAnthropicMessage } from './chat-response';
import { AnthropicChatStream } from './chat-stream';
import { ANTHROPIC_DEFAULT_BASE_URL, anthropicTokenCounting } from './count-tokens';
import { anthropicRequestHeaders } from './request-headers';
import { ANTHROPIC_VERSION } from './types';

export { ANTHROPIC_DEFAULT_BASE_URL };

export const anthropicAdapter: ProviderAdapter = {
  family: 'anthropic',
  name: 'anthropic',
  tokenCounting: anthropicTokenCounting,
  modelsListing: listingFrom(
    (target) => ({
      url: joinUrl(baseUrlOrDefault(target, ANTHROPIC_DEFAULT_BASE_URL), '/v1/models?limit=1000'),
      headers: { 'x-api-key': target.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
    }),
    parseDataIds,
  ),
  buildChatRequest: (request, target) => ({
    method: 'POST',
    url: joinUrl(baseUrlOrDefault(target, ANTHROPIC_DEFAULT_BASE_URL), '/v1/messages'),
    headers: anthropicRequestHeaders(request, target.apiKey),
    body: JSON.stringify(toAnthropicMessagesRequest(request, target.upstreamModel)),
    stream: request.stream === true,
  }),
  parseChatResponse: (body, context) => fromAnthropicMessage(body, context),
  createChatStreamTransformer: (context) => new AnthropicChatStream(context),
  buildPassThroughRequest: (operation) => {
    throw new UnsupportedOperationError('anthropic', operation);
  },
};
