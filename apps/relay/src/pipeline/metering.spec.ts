import type { UsageRecorded } from '@tollgate/contracts';
import { MetricsService, type CorrelationHeaders } from '@tollgate/platform';
import { aChannel, aToken, aUser } from '../../test/support/fixtures';
import { aMetering } from '../../test/support/metering';
import { IN_DOLLARS } from '../pricing/call-cost';
import * as priceBook from '../pricing/price-book';
import type { CallContext } from './call-context';
import type { EndedCall } from './metering';
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

function ended(usage: EndedCall['usage'], status: EndedCall['status'] = 'success'): EndedCall {
  return {
    channel: aChannel({ id: 9 }),
    provider: 'openai',
    upstreamModel: 'gpt-4o-mini',
    usage,
    status,
    ttftMs: null,
    isStream: false,
    operation: 'chat',
    url: 'https://upstream.test/',
    sentAt: 0,
  };
}

async function aMeteredCall(events: UsageRecorded[], headers: CorrelationHeaders[] = []) {
  const metering = aMetering({
    metrics: new RelayMetrics(new MetricsService('relay-metering-test')),
    costTerms: IN_DOLLARS,
    events,
    headers,
  });
  return metering.open(context, quote, { promptTokens: 100, maxOutputTokens: 100 });
}

describe('MeteredCall', () => {
  afterEach(() => jest.restoreAllMocks());

  it("computes the charge once when the answer's cost and the usage event price the same usage", async () => {
    const events: UsageRecorded[] = [];
    const metered = await aMeteredCall(events);
    const charges = jest.spyOn(priceBook, 'actualQuota');
    const usage = { prompt_tokens: 1_000, completion_tokens: 2_000, cached_tokens: 0 };

    const cost = metered.costFor(usage);
    // A stream's last chunk and its final usage are different objects with the same counts.
    await metered.finish(ended({ ...usage }));

    expect(charges).toHaveBeenCalledTimes(1);
    expect(events).toHaveLength(1);
    expect(events[0]!.quota).toBe(cost.quota);
    expect(cost.quota).toBe(priceBook.actualQuota(quote, usage));
  });

  it("records the usage event with its call's request and correlation ids as its headers", async () => {
    const events: UsageRecorded[] = [];
    const headers: CorrelationHeaders[] = [];
    const metered = await aMeteredCall(events, headers);
    await metered.finish(ended({ prompt_tokens: 1, completion_tokens: 1, cached_tokens: 0 }));
    expect(events.map((event) => event.request_id)).toEqual(['req-1']);
    expect(headers).toEqual([{ 'x-request-id': 'req-1', 'x-correlation-id': 'flow-1' }]);
  });

  it('gives the usage events of calls opened one after another ids in time order', async () => {
    const events: UsageRecorded[] = [];
    for (let i = 0; i < 50; i += 1) {
      const metered = await aMeteredCall(events);
      await metered.finish(ended({ prompt_tokens: 1, completion_tokens: 1, cached_tokens: 0 }));
    }
    const ids = events.map((event) => event.event_id);
    expect(new Set(ids).size).toBe(50);
    expect([...ids].sort()).toEqual(ids);
  });

  it('charges a different usage anew, and a call the upstream broke off nothing', async () => {
    const events: UsageRecorded[] = [];
    const metered = await aMeteredCall(events);
    const first = { prompt_tokens: 1_000, completion_tokens: 2_000, cached_tokens: 0 };
    const later = { prompt_tokens: 1_000, completion_tokens: 2_500, cached_tokens: 500 };

    const cost = metered.costFor(first);
    expect(metered.chargeFor(later)).toBe(priceBook.actualQuota(quote, later));
    expect(metered.chargeFor(later)).not.toBe(cost.quota);
    expect(metered.chargeFor(first, 'upstream_error')).toBe(0);
    await metered.finish(ended(first));
    expect(events[0]!.quota).toBe(cost.quota);
  });
});
