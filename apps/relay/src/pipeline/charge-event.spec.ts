import { CHAT_CHARGE_EVENT, chatChargeSchema } from '@tollgate/contracts';
import { actualQuota, type Quote } from '../pricing/price-book';
import { chargeEvent } from './charge-event';

const quote: Quote = {
  model: 'gpt-4o-mini',
  price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
  contextWindow: 128_000,
};

describe('chargeEvent', () => {
  it("is one SSE event named tollgate.charge whose quota is the call's actual charge", () => {
    const usage = { prompt_tokens: 1_000, completion_tokens: 2_000, cached_tokens: 0 };
    const text = chargeEvent(quote, usage);
    const [eventLine, dataLine, blank, end] = text.split('\n');
    expect(eventLine).toBe(`event: ${CHAT_CHARGE_EVENT}`);
    expect(blank).toBe('');
    expect(end).toBe('');
    const charge = chatChargeSchema.parse(JSON.parse(dataLine!.slice('data: '.length)));
    expect(charge).toEqual({
      quota: actualQuota(quote, usage),
      prompt_tokens: 1_000,
      completion_tokens: 2_000,
      model: 'gpt-4o-mini',
    });
    expect(charge.quota).toBeGreaterThan(0);
  });

  it('names the answer limit when the balance held the answer to one', () => {
    const usage = { prompt_tokens: 10, completion_tokens: 700, cached_tokens: 0 };
    const [, dataLine] = chargeEvent(quote, usage, 700).split('\n');
    expect(chatChargeSchema.parse(JSON.parse(dataLine!.slice('data: '.length))).answer_limit).toBe(700);
  });
});
