import type { ChatCompletionRequest } from '../canonical';
import { anthropicMaxTokensWithoutLimit } from './anthropic/chat-request';

/**
 * The most output tokens a channel of any family is asked for when the client names no answer limit:
 * Anthropic requires max_tokens, so its adapter sends its default (and a `reasoning_effort`'s thinking
 * budget on top); OpenAI-style and Gemini adapters send no limit then. The reservation must hold at
 * least this, whichever channel serves the call.
 */
export function answerLimitSentWithoutClientLimit(request: ChatCompletionRequest): number {
  return anthropicMaxTokensWithoutLimit(request);
}

/**
 * How many answers the upstream generates and bills for one call (`n`: OpenAI's choices, Gemini's
 * candidateCount), each up to the answer limit.
 */
export function answersGenerated(request: Pick<ChatCompletionRequest, 'n'>): number {
  const { n } = request;
  return typeof n === 'number' && Number.isInteger(n) && n > 1 ? n : 1;
}
