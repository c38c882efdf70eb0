import type { ChatCompletionRequest } from '../providers';

/** Counts tokens locally (gpt-tokenizer), for estimates and for upstreams that report no usage. */
export interface TokenCounter {
  countPromptTokens(request: ChatCompletionRequest): number;
  countTextTokens(text: string): number;
}
