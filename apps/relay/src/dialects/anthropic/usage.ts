import type { NormalizedUsage } from '../../canonical';
import type { AnthropicUsage } from '../../providers/anthropic/types';

/** Usage as Anthropic clients read it: cached tokens are reported as cache reads. */
export function toAnthropicUsage(usage: NormalizedUsage): AnthropicUsage {
  return {
    input_tokens: Math.max(0, usage.prompt_tokens - usage.cached_tokens),
    output_tokens: usage.completion_tokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cached_tokens,
  };
}
