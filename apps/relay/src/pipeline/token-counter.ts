import type { ChatCompletionRequest } from '../providers';

/** Counts tokens locally (gpt-tokenizer), for upstreams that report no usage. */
export interface TokenCounter {
  countPromptTokens(request: ChatCompletionRequest): number;
  countTextTokens(text: string): number;
}
