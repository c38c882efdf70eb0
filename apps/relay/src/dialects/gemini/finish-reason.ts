import type { FinishReason } from '../../canonical';
import type { GeminiFinishReason } from '../../providers/gemini/types';

export function geminiFinishReasonFromFinish(reason: FinishReason | null | undefined): GeminiFinishReason {
  switch (reason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    default:
      return 'STOP';
  }
}
