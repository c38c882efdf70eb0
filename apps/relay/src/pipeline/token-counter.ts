import type { ChatCompletionRequest } from '../canonical';

/** Counts tokens locally (gpt-tokenizer), for upstreams that report no usage. */
export interface TokenCounter {
  countPromptTokens(request: ChatCompletionRequest): number;
  countTextTokens(text: string): number;
}
