import type { TokenCounting } from '../provider-adapter';
import { MalformedUpstreamResponseError } from '../../canonical';
import { baseUrlOrDefault, JSON_CONTENT_TYPE, joinUrl } from '../upstream-request';
import { toGeminiRequest } from './chat-request';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/**
 * `:countTokens` with the whole GenerateContentRequest the chat call would send (system instruction
 * and tools count too; a bare `contents` would leave them out).
 */
export const geminiTokenCounting: TokenCounting = {
  request: (request, target) => {
    const model = encodeURIComponent(target.upstreamModel);
    const { generationConfig: _settings, ...prompt } = toGeminiRequest({ ...request, stream: false });
    return {
      method: 'POST',
      url: joinUrl(baseUrlOrDefault(target, GEMINI_DEFAULT_BASE_URL), `/v1beta/models/${model}:countTokens`),
      headers: { 'content-type': JSON_CONTENT_TYPE, 'x-goog-api-key': target.apiKey },
      body: JSON.stringify({
        generateContentRequest: { model: `models/${target.upstreamModel}`, ...prompt },
      }),
      stream: false,
    };
  },
  parse: (body) => {
    const total = (body as { totalTokens?: unknown } | null)?.totalTokens;
    // proto3 JSON leaves a zero out.
    if (total === undefined) return 0;
    if (typeof total !== 'number' || !Number.isInteger(total) || total < 0)
      throw new MalformedUpstreamResponseError('countTokens answer without totalTokens');
    return total;
  },
};
