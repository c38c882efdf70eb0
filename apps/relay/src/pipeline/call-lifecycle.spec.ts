import { chargeQuota, ErrorCode, type UsageRecorded } from '@tollgate/contracts';
import { MemoryKvStore } from '@tollgate/kv';
import { MetricsService, type Logger } from '@tollgate/platform';
import { anAdmission } from '../../test/support/admission';
import { aCallContext, aChannel, aModelPrice } from '../../test/support/fixtures';
import { aMetering, silentLogger, type TestMeteringOptions } from '../../test/support/metering';
import { IN_DOLLARS } from '../pricing/call-cost';
import { RelayError } from '../errors/relay-error';
import { adapterForChannelType } from '../providers';
import { userAccount } from '../quota/quota-reservations';
import type { CallContext } from './call-context';
import { CallLifecycle, type AcceptedCall, type ModelCall, type RelayedAnswer } from './call-lifecycle';
import { ClientGoneError, type ClientReply } from './client-reply';
import { RelayMetrics } from './relay-metrics';
import type { Dispatched, UpstreamDispatcher } from './upstream-dispatcher';
import { unreadableAnswer } from './upstream-failure';
import { CallAbortSource } from '../upstream/call-abort';

const USAGE = { prompt_tokens: 10, completion_tokens: 5, cached_tokens: 0 };
/** What every call here reserves at the second model's price (the first costs a hundred times more). */
const SECOND_ESTIMATE = chargeQuota(
  { prompt_tokens: 100, completion_tokens: 100, cached_tokens: 0 },
  { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' },
);

/** A reply that records nothing but whether the client is still there. */
function aReply(): ClientReply & { controller: CallAbortSource } {
  const controller = new CallAbortSource();
  return {
    controller,
    get aborted() {
      return controller.aborted;
    },
    onAbort: (listener) => controller.onAbort(listener),
    streamStarted: false,
    setHeaders: () => undefined,
    sendJson: () => undefined,
    sendRaw: () => undefined,
    startStream: () => undefined,
    write: async () => undefined,
    end: () => undefined,
  };
}

/** A relay's call whose answer is `relayed` (or that throws it). */
function aCall(relayed: RelayedAnswer | Error): ModelCall & { models: string[] } {
  const models: string[] = [];
  return {
    models,
    operation: 'chat',
    estimate: () => ({ promptTokens: 100, maxOutputTokens: 100 }),
    buildRequest: () => ({
      method: 'POST',
      url: 'https://upstream.test/',
      headers: {},
      body: '',
      stream: false,
    }),
    relayAnswer: async ({ metered }: AcceptedCall) => {
      models.push(metered.quote.model);
      if (relayed instanceof Error) throw relayed;
      return relayed;
    },
  };
}

/** `served`: the models a channel answers for; any other has none. */
function setup(
  served: string[],
  balance = 1_000_000,
  metered: Pick<TestMeteringOptions, 'acknowledged' | 'logger'> & { kv?: MemoryKvStore } = {},
) {
  const kv = metered.kv ?? new MemoryKvStore();
  const events: UsageRecorded[] = [];
  const release = jest.fn();
  const metrics = new RelayMetrics(new MetricsService('relay-lifecycle-test'));
  const dispatch = jest.fn(async (_context: CallContext, model: string): Promise<Dispatched> => {
    if (!served.includes(model)) throw new RelayError(ErrorCode.NoChannelAvailable, 'no channel', 1);
    return {
      response: { statusCode: 200, headers: {} } as unknown as Dispatched['response'],
      route: { channel: aChannel({ id: 9 }), upstreamModel: model },
      adapter: adapterForChannelType(1),
      release,
      sentAt: 0,
      url: 'https://upstream.test/',
    };
  });
  const metering = aMetering({
    kv,
    quotaOf: () => balance,
    events,
    metrics,
    costTerms: IN_DOLLARS,
    acknowledged: metered.acknowledged,
    logger: metered.logger,
  });
  const lifecycle = new CallLifecycle({
    ...anAdmission([aModelPrice('first', { input: '15', output: '60' }), aModelPrice('second')]),
    metering,
    dispatcher: { dispatch } as unknown as UpstreamDispatcher,
    metrics,
    now: () => 0,
  });
  const context = aCallContext();
  return { kv, events, release, dispatch, lifecycle, context, metering };
}

/** Turns of the event loop until `done` says so, or ten of them: what a call's own steps take here. */
async function turnsUntil(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10 && !done(); turn++) await new Promise(setImmediate);
}

const answered: RelayedAnswer = { usage: USAGE, status: 'success', ttftMs: null, stream: false };

describe('CallLifecycle', () => {
  it('finishes a served call once: its usage event, the channel freed, the real charge held', async () => {
    const { kv, events, release, lifecycle, context, metering } = setup(['first']);
    const call = aCall(answered);
    await lifecycle.run(context, aReply(), ['first'], () => call);
    await metering.finished();

    expect(events).toEqual([
      expect.objectContaining({ model: 'first', status: 'success', prompt_tokens: 10 }),
    ]);
    expect(release).toHaveBeenCalledTimes(1);
    expect(await kv.outstanding(userAccount(7))).toBe(events[0]!.quota);
  });

  it('returns once the answer is out, not when the broker acknowledges its usage event; the charge is held after', async () => {
    let acknowledge!: () => void;
    const acknowledged = new Promise<void>((resolve) => (acknowledge = resolve));
    const { kv, events, lifecycle, context, metering } = setup(['first'], 1_000_000, {
      acknowledged: () => acknowledged,
    });
    let returned = false;
    void lifecycle.run(context, aReply(), ['first'], () => aCall(answered)).then(() => (returned = true));
    await turnsUntil(() => returned);

    expect(returned).toBe(true);
    expect(events).toHaveLength(1);
    const charge = events[0]!.quota;
    expect(await kv.outstanding(userAccount(7))).not.toBe(charge); // still the estimate
    let finished = false;
    void metering.finished().then(() => (finished = true));
    await turnsUntil(() => finished);
    expect(finished).toBe(false);

    acknowledge();
    await metering.finished();
    expect(await kv.outstanding(userAccount(7))).toBe(charge);
  });

  it('logs a reservation it could not settle once the answer is out, and neither throws nor tries another model', async () => {
    const kv = new MemoryKvStore();
    jest.spyOn(kv, 'settle').mockRejectedValue(new Error('connection lost'));
    const error = jest.fn();
    const logger = { ...silentLogger, error } as unknown as Logger;
    const { events, lifecycle, context, metering } = setup(['first', 'second'], 1_000_000, { kv, logger });
    const call = aCall(answered);

    await lifecycle.run(context, aReply(), ['first', 'second'], () => call);
    await metering.finished();

    expect(call.models).toEqual(['first']);
    expect(events).toHaveLength(1);
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ err: 'Error' }),
      'the call ended but its reservation could not be settled',
    );
  });

  it('hands the reservation back and frees the channel when the answer cannot be read', async () => {
    const { kv, events, release, lifecycle, context } = setup(['first']);
    const call = aCall(unreadableAnswer());
    await expect(lifecycle.run(context, aReply(), ['first'], () => call)).rejects.toMatchObject({
      status: 502,
    });
    expect(events).toEqual([]);
    expect(release).toHaveBeenCalledTimes(1);
    expect(await kv.outstanding(userAccount(7))).toBe(0);
  });

  it('says the client left rather than what failed once it has gone', async () => {
    const { kv, lifecycle, context } = setup(['first']);
    const reply = aReply();
    reply.controller.abort();
    const call = aCall(new Error('socket closed'));
    await expect(lifecycle.run(context, reply, ['first'], () => call)).rejects.toBeInstanceOf(
      ClientGoneError,
    );
    expect(await kv.outstanding(userAccount(7))).toBe(0);
  });

  it('goes on to the next model asked for while one has no channel, and names the one that served', async () => {
    const { kv, events, dispatch, lifecycle, context } = setup(['second']);
    const call = aCall(answered);
    await lifecycle.run(context, aReply(), ['first', 'second'], () => call);

    expect(dispatch.mock.calls.map((args) => args[1])).toEqual(['first', 'second']);
    expect(call.models).toEqual(['second']);
    expect(events).toEqual([expect.objectContaining({ model: 'second' })]);
    // The first model's reservation was handed back when no channel took it.
    expect(await kv.outstanding(userAccount(7))).toBe(events[0]!.quota);
  });

  it('tries no other model when the caller’s own balance refuses the call', async () => {
    // The balance would pay for the second model, but a balance refusal is not the model's fault.
    const { dispatch, lifecycle, context } = setup(['first', 'second'], SECOND_ESTIMATE);
    const call = aCall(answered);
    await expect(lifecycle.run(context, aReply(), ['first', 'second'], () => call)).rejects.toMatchObject({
      status: 402,
    });
    expect(dispatch).not.toHaveBeenCalled();
  });
});
