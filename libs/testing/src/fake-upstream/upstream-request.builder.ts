import { PromptCache } from './generation/prompt-cache';
import { PromptTokenCounter } from './generation/prompt-tokens';
import type { UpstreamRequest } from './fake-upstream.reply';

/** Builds the input of a route handler for unit tests of the provider transforms. */
export function anUpstreamRequest(body: unknown, overrides: Partial<UpstreamRequest> = {}): UpstreamRequest {
  return {
    body,
    params: {},
    query: new URLSearchParams(),
    headers: {},
    settings: { completionTokens: 16, chunks: 4, embeddingDimensions: 8, models: ['model-a', 'model-b'] },
    promptTokens: new PromptTokenCounter(),
    promptCache: new PromptCache(),
    sequence: 1,
    baseUrl: 'http://127.0.0.1:1',
    ...overrides,
  };
}
