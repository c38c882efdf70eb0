/**
 * The relay's own answer limit. A call that names none and may be answered shorter (the web chat's) is
 * held to what the balance pays for (metering.ts). The request is marked, so that an upstream whose
 * limit also holds the thinking (Anthropic's max_tokens above budget_tokens) fits its thinking into
 * it rather than refuse the call.
 */
const FITTED_ANSWER_LIMIT = Symbol('tollgate:fitted-answer-limit');

type Marked = { [FITTED_ANSWER_LIMIT]?: true };

/**
 * The smallest thinking budget a channel takes (Anthropic's): a call asking `reasoning_effort` is
 * fitted to no less than this and an answer after it.
 */
export const MIN_THINKING_BUDGET_TOKENS = 1024;

export function withFittedAnswerLimit<T extends object>(request: T): T {
  (request as Marked)[FITTED_ANSWER_LIMIT] = true;
  return request;
}

/** Whether the request's answer limit is the relay's fit to the balance, not the client's own. */
export function isAnswerLimitFitted(request: object): boolean {
  return (request as Marked)[FITTED_ANSWER_LIMIT] === true;
}
