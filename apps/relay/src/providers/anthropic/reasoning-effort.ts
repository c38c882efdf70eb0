import {
  isAnswerLimitFitted,
  MIN_THINKING_BUDGET_TOKENS,
  type ChatCompletionRequest,
  UntranslatableRequestError,
} from '../../canonical';
import type { AnthropicMessagesRequest } from './types';

/** Thinking budgets for OpenAI's `reasoning_effort` (Anthropic's minimum budget is 1024 tokens). */
const THINKING_BUDGET_BY_EFFORT: Readonly<Record<string, number>> = {
  minimal: MIN_THINKING_BUDGET_TOKENS,
  low: MIN_THINKING_BUDGET_TOKENS,
  medium: 2048,
  high: 4096,
};

/** The thinking budget a request's `reasoning_effort` is sent with, when it is sent with thinking. */
function budgetForEffort(request: ChatCompletionRequest): number | undefined {
  const effort = request['reasoning_effort'];
  if (typeof effort !== 'string') return undefined;
  const budget = THINKING_BUDGET_BY_EFFORT[effort];
  if (budget === undefined) return undefined;
  if (request.messages.some((message) => message.role === 'assistant' && message.tool_calls !== undefined))
    return undefined;
  return budget;
}

/**
 * The thinking `thinkingForEffort` adds to the default answer limit of a request that names none (0
 * when it sends no thinking), so that the reservation can hold it.
 */
export function thinkingBeyondDefaultLimit(request: ChatCompletionRequest): number {
  return budgetForEffort(request) ?? 0;
}

/**
 * An OpenAI client's `reasoning_effort` as Anthropic's extended thinking. `max_tokens` is the budget
 * plus the answer's default limit, or the client's own limit (above the budget), or the relay's fit
 * to the balance (the budget shrunk into it). Left out (no thinking) for `none`, and for a request that
 * continues a tool call: Anthropic then wants the earlier turn's signed thinking back, which an OpenAI
 * history cannot carry.
 */
export function thinkingForEffort(
  request: ChatCompletionRequest,
  answerLimit: number | undefined,
  defaultAnswerLimit: number,
): Pick<AnthropicMessagesRequest, 'thinking' | 'max_tokens'> | undefined {
  const budget = budgetForEffort(request);
  if (budget === undefined) return undefined;
  const effort = request['reasoning_effort'] as string;
  if (answerLimit === undefined)
    return { thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: budget + defaultAnswerLimit };
  // The relay fitted max_tokens to the balance (never below the smallest budget and an answer): it is
  // never raised, the thinking takes at most half of it.
  if (isAnswerLimitFitted(request)) {
    const fitted = Math.max(MIN_THINKING_BUDGET_TOKENS, Math.min(budget, Math.floor(answerLimit / 2)));
    if (fitted < answerLimit)
      return { thinking: { type: 'enabled', budget_tokens: fitted }, max_tokens: answerLimit };
  }
  if (answerLimit <= budget)
    throw new UntranslatableRequestError(
      `reasoning_effort "${effort}" thinks up to ${budget} tokens on this model: max_tokens must be above that`,
    );
  return { thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: answerLimit };
}
