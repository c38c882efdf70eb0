import type { FinishReason } from '../../canonical';
import type { AnthropicStopReason } from './types';

export function finishReasonFromAnthropic(
  reason: AnthropicStopReason | null | undefined,
): FinishReason | null {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return null;
  }
}
