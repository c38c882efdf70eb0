import type { UsageRecorded } from '@tollgate/contracts';
import { MetricsService, type CorrelationHeaders } from '@tollgate/platform';
import { aChannel, aToken, aUser } from '../../test/support/fixtures';
import { aMetering } from '../../test/support/metering';
import { IN_DOLLARS } from '../pricing/call-cost';
import * as priceBook from '../pricing/price-book';
import type { CallContext } from './call-context';
import { MIN_FITTED_ANSWER_TOKENS, type EndedCall } from './metering';
import { QuotaRefusedError } from '../quota/quota-reservations';
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

describe('Metering: a web chat call the balance cannot pay in full', () => {
  const chat: CallContext = { ...context, caller: { token: null, user: aUser(8), group: 'default' } };
  const policy = { defaultMaxOutputTokens: 4_096 };
  const metering = (balance: number) =>
    aMetering({
      metrics: new RelayMetrics(new MetricsService('relay-metering-fit-test')),
      costTerms: IN_DOLLARS,
      quotaOf: () => balance,
      defaultMaxOutputTokens: policy.defaultMaxOutputTokens,
    });
  const paysFor = (answerTokens: number) =>
    priceBook.estimateQuota(quote, { promptTokens: 100, maxOutputTokens: answerTokens }, policy);

  it('is answered as long as the balance pays for, the reservation within the balance', async () => {
    const balance = paysFor(1_000);
    const metered = await metering(balance).open(chat, quote, {
      promptTokens: 100,
      maxOutputTokens: undefined,
      fitsAnswerToBalance: true,
    });
    expect(metered.answerLimit).toBe(priceBook.affordableOutputTokens(quote, 100, balance));
    expect(metered.answerLimit).toBeGreaterThanOrEqual(1_000);
    expect(metered.answerLimit).toBeLessThan(4_096);
    expect(metered.estimate).toBeLessThanOrEqual(balance);
  });

  it('holds no limit when the balance pays for the default length', async () => {
    const metered = await metering(paysFor(10_000)).open(chat, quote, {
      promptTokens: 100,
      maxOutputTokens: undefined,
      fitsAnswerToBalance: true,
    });
    expect(metered.answerLimit).toBeUndefined();
  });

  it.each([
    ['a call that may not be answered shorter (an API key)', { fitsAnswerToBalance: false }, 1_000],
    ['a call that named its own length', { fitsAnswerToBalance: true, maxOutputTokens: 4_096 }, 1_000],
    [
      'a balance that pays for too short an answer',
      { fitsAnswerToBalance: true },
      MIN_FITTED_ANSWER_TOKENS - 10,
    ],
    [
      'a reasoning call whose balance pays for less than its thinking and an answer',
      { fitsAnswerToBalance: true, thinkingTokens: 1_024 },
      1_024 + MIN_FITTED_ANSWER_TOKENS - 10,
    ],
  ])('refuses %s with 402', async (_case, input, answerTokens) => {
    const refusal = metering(paysFor(answerTokens)).open(chat, quote, {
      promptTokens: 100,
      maxOutputTokens: undefined,
      ...input,
    });
    await expect(refusal).rejects.toBeInstanceOf(QuotaRefusedError);
    await expect(refusal).rejects.toThrow(/can only afford/);
  });
});

describe('Metering: the reservation holds what the upstream may generate', () => {
  const chat: CallContext = { ...context, caller: { token: null, user: aUser(9), group: 'default' } };
  const policy = { defaultMaxOutputTokens: 4_096 };
  const metering = (balance: number) =>
    aMetering({
      metrics: new RelayMetrics(new MetricsService('relay-metering-sent-test')),
      costTerms: IN_DOLLARS,
      quotaOf: () => balance,
      defaultMaxOutputTokens: policy.defaultMaxOutputTokens,
    });
  const paysFor = (answerTokens: number) =>
    priceBook.estimateQuota(quote, { promptTokens: 100, maxOutputTokens: answerTokens }, policy);
  it('reserves every answer of a call asking n of them', async () => {
    const metered = await metering(1e12).open(context, quote, {
      promptTokens: 100,
      maxOutputTokens: 500,
      answers: 3,
    });
    expect(metered.estimate).toBe(paysFor(1_500));
  });

  it('reserves, for a call naming no limit, what a channel is sent when that is above the default', async () => {
    const metered = await metering(1e12).open(context, quote, {
      promptTokens: 100,
      maxOutputTokens: undefined,
      answerLimitSentByDefault: 4_096 + 2_048,
    });
    expect(metered.estimate).toBe(paysFor(4_096 + 2_048));
  });

  it("fits a web chat's reasoning call to the balance when it pays for the default but not the thinking on top", async () => {
    const balance = paysFor(5_000);
    const metered = await metering(balance).open(chat, quote, {
      promptTokens: 100,
      maxOutputTokens: undefined,
      fitsAnswerToBalance: true,
      thinkingTokens: 1_024,
      answerLimitSentByDefault: 4_096 + 2_048,
    });
    expect(metered.answerLimit).toBe(priceBook.affordableOutputTokens(quote, 100, balance));
    expect(metered.estimate).toBeLessThanOrEqual(balance);
  });

  it('holds the upstream to the reserved limit when the client named none and the balance is tight, and only then', async () => {
    const input = { promptTokens: 100, maxOutputTokens: undefined, answerLimitSentByDefault: 4_096 };
    const tight = await metering(paysFor(4_096) * 10).open(context, quote, input);
    expect(tight.heldAnswerLimit).toBe(4_096);
    expect(tight.answerLimit).toBeUndefined();
    const ample = await metering(paysFor(4_096) * 64).open(context, quote, input);
    expect(ample.heldAnswerLimit).toBeUndefined();
    const named = await metering(paysFor(4_096) * 10).open(context, quote, { ...input, maxOutputTokens: 50 });
    expect(named.heldAnswerLimit).toBeUndefined();
  });
});

describe('Metering: a 402 while finished calls still hold the balance', () => {
  it('says the hold is of calls in flight or just finished, not of calls in flight alone', async () => {
    const call = { promptTokens: 100, maxOutputTokens: 1_000 };
    const oneCall = priceBook.estimateQuota(quote, call, { defaultMaxOutputTokens: 100 });
    const metering = aMetering({
      metrics: new RelayMetrics(new MetricsService('relay-metering-refusal-test')),
      costTerms: IN_DOLLARS,
      quotaOf: () => oneCall + oneCall / 2,
    });
    const first = await metering.open(context, quote, call);
    await first.finish(ended({ prompt_tokens: 100, completion_tokens: 1_000, cached_tokens: 0 }));

    const refusal = metering.open(context, quote, call);

    await expect(refusal).rejects.toThrow(
      'Calls in flight or just finished hold the rest of the balance until they are billed: retry in a minute',
    );
  });
});
