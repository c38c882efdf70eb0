import { type ChatCompletionRequest, UntranslatableRequestError } from '../../canonical';
import { geminiClientRequestToChat } from './request';

/**
 * A Gemini CountTokensRequest (`{contents}`, or `{generateContentRequest}` with its system instruction
 * and tools) → the canonical request whose prompt is counted. Throws UntranslatableRequestError (400).
 */
export function geminiCountTokensRequestToChat(model: string, body: unknown): ChatCompletionRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new UntranslatableRequestError('the request body must be a JSON object (CountTokensRequest)');
  const record = body as Record<string, unknown>;
  const wrapped = record['generateContentRequest'] ?? record['generate_content_request'];
  if (wrapped !== undefined && record['contents'] !== undefined)
    throw new UntranslatableRequestError('give either contents or generateContentRequest, not both');
  return geminiClientRequestToChat(model, wrapped ?? { contents: record['contents'] }, false);
}

/** Gemini's CountTokensResponse. */
export function geminiCountTokensResponse(totalTokens: number): { totalTokens: number } {
  return { totalTokens };
}
