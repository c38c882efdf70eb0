import type { FinishReason } from '../../canonical';
import type { GeminiFinishReason } from './types';

/** Gemini has no tool-call finish reason: a candidate that called functions says STOP. */
export function finishReasonFromGemini(
  reason: GeminiFinishReason | undefined,
  calledTools: boolean,
): FinishReason | null {
  if (reason === undefined) return null;
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    default:
      return calledTools ? 'tool_calls' : 'stop';
  }
}
