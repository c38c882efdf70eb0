import type { ProviderAdapter } from '../provider-adapter';
import { listingFrom, parseGeminiModels } from '../models-listing';
import { UnsupportedOperationError } from '../provider-errors';
import { baseUrlOrDefault, JSON_CONTENT_TYPE, joinUrl } from '../upstream-request';
import { toGeminiRequest } from './chat-request';
import { fromGeminiResponse } from './chat-response';
import { GeminiChatStream } from './chat-stream';
import { GEMINI_DEFAULT_BASE_URL, geminiTokenCounting } from './count-tokens';
import { geminiEmbeddings } from './embeddings';

export { GEMINI_DEFAULT_BASE_URL };

export const geminiAdapter: ProviderAdapter = {
  family: 'gemini',
  name: 'gemini',
  tokenCounting: geminiTokenCounting,
  embeddings: geminiEmbeddings,
  modelsListing: listingFrom(
    (target) => ({
      url: joinUrl(baseUrlOrDefault(target, GEMINI_DEFAULT_BASE_URL), '/v1beta/models?pageSize=1000'),
      headers: { 'x-goog-api-key': target.apiKey },
    }),
    parseGeminiModels,
  ),
  buildChatRequest: (request, target) => {
    const model = encodeURIComponent(target.upstreamModel);
    const method = request.stream === true ? ':streamGenerateContent?alt=sse' : ':generateContent';
    return {
      method: 'POST',
      url: joinUrl(baseUrlOrDefault(target, GEMINI_DEFAULT_BASE_URL), `/v1beta/models/${model}${method}`),
      headers: { 'content-type': JSON_CONTENT_TYPE, 'x-goog-api-key': target.apiKey },
      body: JSON.stringify(toGeminiRequest(request)),
      stream: request.stream === true,
    };
  },
  parseChatResponse: (body, context) => fromGeminiResponse(body, context),
  createChatStreamTransformer: (context) => new GeminiChatStream(context),
  buildPassThroughRequest: (operation) => {
    throw new UnsupportedOperationError('gemini', operation);
  },
};
