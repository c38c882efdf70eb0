import { CHAT_CHARGE_EVENT, type ChatCharge } from '@tollgate/contracts';
import { actualQuota, type Quote } from '../pricing/price-book';
import type { NormalizedUsage } from '../canonical';

/**
 * The SSE event that tells the chat service what its call cost, sent just before the stream's last
 * line: the same quota the call's usage.recorded event carries (actualQuota of the same usage).
 */
export function chargeEvent(quote: Quote, usage: NormalizedUsage, answerLimit?: number): string {
  const charge: ChatCharge = {
    quota: actualQuota(quote, usage),
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    model: quote.model,
    ...(answerLimit === undefined ? {} : { answer_limit: answerLimit }),
  };
  return `event: ${CHAT_CHARGE_EVENT}\ndata: ${JSON.stringify(charge)}\n\n`;
}
