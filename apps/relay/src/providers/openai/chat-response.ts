import { MalformedUpstreamResponseError, type ChatCompletionResponse } from '../../canonical';

/** OpenAI-style answers are already canonical; this checks the shape the relay relies on. */
export function parseOpenAiChatResponse(body: unknown): ChatCompletionResponse {
  const candidate = body as Partial<ChatCompletionResponse> | null;
  if (typeof candidate !== 'object' || candidate === null || !Array.isArray(candidate.choices)) {
    throw new MalformedUpstreamResponseError('chat completion without a choices array');
  }
  return candidate as ChatCompletionResponse;
}
