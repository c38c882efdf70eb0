import type { FinishReason } from '../../canonical';
import type { AnthropicStopReason } from '../../providers/anthropic/types';

export function stopReasonFromFinish(reason: FinishReason | null | undefined): AnthropicStopReason {
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
