import { MetricsService } from '@tollgate/platform';
import { aChannel, aToken, aUser } from '../../test/support/fixtures';
import { aMetering } from '../../test/support/metering';
import { IN_DOLLARS } from '../pricing/call-cost';
import * as priceBook from '../pricing/price-book';
import type { CallContext } from './call-context';
import { RelayMetrics } from './relay-metrics';

const quote: priceBook.Quote = {
  model: 'gpt-4o-mini',
  price: { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
  contextWindow: 128_000,
};

const context: CallContext = {
  requestId: 'req-1',
  correlationId: 'flow-1',
  protocol: 'openai',
  caller: { token: aToken({ id: 3 }), user: aUser(7), group: 'default' },
  startedAt: 0,
};

const call = { promptTokens: 100, maxOutputTokens: 1_000 };
const policy = { defaultMaxOutputTokens: 100 };

describe('Metering: a 402 while finished calls still hold the balance', () => {
  it('says the hold is of calls in flight or just finished, not of calls in flight alone', async () => {
    const oneCall = priceBook.estimateQuota(quote, call, policy);
    const metering = aMetering({
      metrics: new RelayMetrics(new MetricsService('relay-metering-refusal-test')),
      costTerms: IN_DOLLARS,
      quotaOf: () => oneCall + oneCall / 2,
    });
    const first = await metering.open(context, quote, call);
    await first.finish({
      channel: aChannel({ id: 9 }),
      provider: 'openai',
      upstreamModel: 'gpt-4o-mini',
      usage: { prompt_tokens: 100, completion_tokens: 1_000, cached_tokens: 0 },
      status: 'success',
      ttftMs: null,
      isStream: false,
      operation: 'chat',
      url: 'https://upstream.test/',
      sentAt: 0,
    });

    const refusal = metering.open(context, quote, call);

    await expect(refusal).rejects.toThrow(
      'Calls in flight or just finished hold the rest of the balance until they are billed: retry in a minute',
    );
  });
});
