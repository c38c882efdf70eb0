import type { AttemptFailure } from './attempt-failure';

/** OpenAI's code; OpenAI-compatible servers (vLLM, DeepSeek, …) often send none and only the words. */
const CONTEXT_LENGTH_CODE = 'context_length_exceeded';

/**
 * The providers' words for it: OpenAI-style "This model's maximum context length is 128000 tokens…",
 * Anthropic's "prompt is too long: 208310 tokens > 200000 maximum" and "input length and `max_tokens`
 * exceed context limit", Gemini's "The input token count (1200000) exceeds the maximum number of tokens
 * allowed (1048576)".
 */
const CONTEXT_LENGTH_WORDING =
  /maximum context length|context[ _-]length|exceeds? (?:the )?context (?:limit|window)|prompt is too long|input token count.*exceeds the maximum/i;

/** Statuses a provider refuses an over-long prompt with; a 429 or 5xx is never about the prompt. */
const REFUSAL_STATUSES = new Set([400, 413, 422]);

/**
 * Whether an upstream refused the call because the prompt, with the answer asked for, does not fit
 * the model's context window. That is the client's error: any channel serving the model refuses it
 * the same way, so it is not retried elsewhere and says nothing about the channel's health.
 */
export function isContextLengthRefusal(failure: AttemptFailure): boolean {
  if (failure.kind !== 'http' || !REFUSAL_STATUSES.has(failure.status)) return false;
  if (failure.errorCode?.toLowerCase() === CONTEXT_LENGTH_CODE) return true;
  return failure.message !== undefined && CONTEXT_LENGTH_WORDING.test(failure.message);
}
