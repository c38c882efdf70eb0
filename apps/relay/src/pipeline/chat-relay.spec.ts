import { Readable } from 'node:stream';
import { CHANNEL_TYPES, chargeQuota, ErrorCode, type UsageRecorded } from '@tollgate/contracts';
import { MemoryKvStore } from '@tollgate/kv';
import { MetricsService } from '@tollgate/platform';
import { anAdmission } from '../../test/support/admission';
import { bodyBuiltFor } from '../../test/support/built-request';
import { aCallContext, aChannel, aModelPrice } from '../../test/support/fixtures';
import { aMetering, silentLogger } from '../../test/support/metering';
import { RecordingReply } from '../../test/support/recording-reply';
import { RelayError } from '../errors/relay-error';
import { adapterForChannelType } from '../providers';
import type { ChatCompletionChunk } from '../canonical';
import { anthropicMessagesProtocol } from '../dialects/anthropic/messages.protocol';
import { openAiChatProtocol } from '../dialects/openai/chat.protocol';
import { userAccount } from '../quota/quota-reservations';
import { callCost, type CostTerms } from '../pricing/call-cost';
import { ChatRelay, withAnswerLimit } from './chat-relay';
import { RelayMetrics } from './relay-metrics';
import type { Dispatched, UpstreamDispatcher } from './upstream-dispatcher';

const PRICE = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };
/** The callers here keep their accounts in rubles: costs are told at this rate. */
const IN_RUBLES: CostTerms = { currency: 'RUB', rubPerUsd: '92.5' };
/** One token per word: enough to tell counted usage from reported usage. */
const countWords = (text: string) => text.split(/\s+/).filter((w) => w !== '').length;
/** The client body's size the tests claim: the reservation's prompt bound. */
const BODY_BYTES = 1000;
const MAX_TOKENS = 20;

/** An upstream body read as `pieces` arrive, one read each (a string: one read). */
function upstreamBody(pieces: string | string[]) {
  const text = typeof pieces === 'string' ? pieces : pieces.join('');
  const reads = (typeof pieces === 'string' ? [pieces] : pieces).map((piece) => Buffer.from(piece));
  return Object.assign(Readable.from(reads), {
    json: async () => JSON.parse(text) as unknown,
    text: async () => text,
  });
}

const chunk = (
  content: string | undefined,
  extra: Partial<ChatCompletionChunk> = {},
): ChatCompletionChunk => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o-mini',
  choices: content === undefined ? [] : [{ index: 0, delta: { content }, finish_reason: null }],
  ...extra,
});
const sse = (chunks: ChatCompletionChunk[]) =>
  chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';

function setup(balance: number, upstream: string | string[] | Error, defaultMaxOutputTokens?: number) {
  const kv = new MemoryKvStore();
  const events: UsageRecorded[] = [];
  const release = jest.fn();
  const tokens = { countTextTokens: countWords, countPromptTokens: jest.fn(() => 10) };
  const metrics = new RelayMetrics(new MetricsService('relay-test'));
  const dispatch = jest.fn(async (): Promise<Dispatched> => {
    if (upstream instanceof Error) throw upstream;
    return {
      response: {
        statusCode: 200,
        headers: {},
        body: upstreamBody(upstream),
      } as unknown as Dispatched['response'],
      route: { channel: aChannel({ id: 9 }), upstreamModel: 'gpt-4o-mini' },
      adapter: adapterForChannelType(1),
      release,
      sentAt: 0,
      url: 'https://api.openai.com/v1/chat/completions',
    };
  });
  const relay = new ChatRelay({
    ...anAdmission([aModelPrice('gpt')]),
    metering: aMetering({
      kv,
      quotaOf: () => balance,
      events,
      metrics,
      costTerms: IN_RUBLES,
      ...(defaultMaxOutputTokens === undefined ? {} : { defaultMaxOutputTokens }),
    }),
    dispatcher: { dispatch } as unknown as UpstreamDispatcher,
    metrics,
    logger: silentLogger,
    tokens,
    now: () => 0,
  });
  const context = aCallContext();
  return { kv, events, release, dispatch, relay, context, tokens, metrics };
}

const request = (extra: Record<string, unknown> = {}) => ({
  body: { model: 'gpt', messages: [{ role: 'user', content: 'hi' }], max_tokens: MAX_TOKENS, ...extra },
});

/** A non-streaming OpenAI answer saying 'hello', as an OpenAI-style upstream sends it. */
const anOpenAiAnswer = (usage: {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}) => ({
  id: 'x',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
  usage,
});

describe('ChatRelay', () => {
  it('answers a plain call, publishes its usage and holds the real charge', async () => {
    const usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 };
    const answer = anOpenAiAnswer(usage);
    // Indented, so that a re-serialised answer would differ from the upstream's bytes.
    const upstreamText = JSON.stringify(answer, null, 2);
    const { kv, events, release, relay, context, tokens } = setup(1_000_000, upstreamText);
    const reply = new RecordingReply();
    await relay.handle(context, openAiChatProtocol, request(), BODY_BYTES, reply);

    expect(tokens.countPromptTokens).not.toHaveBeenCalled();
    const charge = chargeQuota({ prompt_tokens: 12, completion_tokens: 5, cached_tokens: 0 }, PRICE);
    const cost = callCost(charge, IN_RUBLES);
    const costFields = `"cost":${cost.amount},"cost_currency":"RUB","cost_quota":${charge},`;
    // OpenAI client, OpenAI channel: the answer passes through byte for byte, with its cost in the usage.
    expect(reply.raw).toEqual({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: upstreamText.replace('"usage": {', `"usage": {${costFields}`),
    });
    expect(reply.headers).toEqual({
      'x-tollgate-cost': cost.amount,
      'x-tollgate-cost-currency': 'RUB',
      'x-tollgate-cost-quota': String(charge),
    });
    expect(reply.json).toBeUndefined();
    expect(release).toHaveBeenCalled();
    expect(events).toEqual([
      expect.objectContaining({
        status: 'success',
        quota: charge,
        channel_id: 9,
        model: 'gpt',
        is_stream: false,
      }),
    ]);
    expect(await kv.outstanding(userAccount(7))).toBe(charge);
  });

  it('renders the answer in the client dialect when it differs from the channel', async () => {
    const answer = anOpenAiAnswer({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    const { relay, context } = setup(1_000_000, JSON.stringify(answer));
    const reply = new RecordingReply();
    const body = { model: 'gpt', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'hi' }] };
    await relay.handle(
      { ...context, protocol: 'anthropic' },
      anthropicMessagesProtocol,
      { body },
      BODY_BYTES,
      reply,
    );

    expect(reply.raw).toBeUndefined();
    expect(reply.json).toEqual({
      status: 200,
      body: expect.objectContaining({
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'hello' }],
        usage: expect.objectContaining({ input_tokens: 12, output_tokens: 5 }),
      }),
    });
  });

  it('streams chunks, hides the forced usage chunk from a client that did not ask, and bills from it', async () => {
    const body = sse([
      chunk('Hello'),
      chunk(' world'),
      chunk(undefined, { usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } }),
    ]);
    const { events, relay, context } = setup(1_000_000, body);
    const reply = new RecordingReply();
    await relay.handle(context, openAiChatProtocol, request({ stream: true }), BODY_BYTES, reply);

    expect(reply.streamStarted).toBe(true);
    expect(reply.ended).toBe(true);
    expect(reply.written.join('')).not.toContain('usage');
    expect(reply.written.at(-1)).toBe('data: [DONE]\n\n');
    expect(events[0]).toMatchObject({
      status: 'success',
      prompt_tokens: 11,
      completion_tokens: 2,
      is_stream: true,
    });
    expect(events[0]!.ttft_ms).not.toBeNull();
  });

  it('passes an OpenAI channel stream to an OpenAI client as the bytes it sent', async () => {
    // Spaced JSON: a re-serialised chunk would come out without the spaces.
    const datas = [
      JSON.stringify(chunk('Hello'), null, 1).replace(/\n/g, ''),
      JSON.stringify(
        chunk(undefined, { usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }),
        null,
        1,
      ).replace(/\n/g, ''),
    ];
    const body = datas.map((data) => `data: ${data}\n\n`).join('') + 'data: [DONE]\n\n';
    const { events, relay, context } = setup(1_000_000, body);
    const reply = new RecordingReply();
    const asked = request({ stream: true, stream_options: { include_usage: true } });
    await relay.handle(context, openAiChatProtocol, asked, BODY_BYTES, reply);

    // The usage chunk's bytes too, with the call's cost in its usage.
    const charge = chargeQuota({ prompt_tokens: 3, completion_tokens: 1, cached_tokens: 0 }, PRICE);
    const withCost = datas[1]!.replace(
      '"usage": {',
      `"usage": {"cost":${callCost(charge, IN_RUBLES).amount},"cost_currency":"RUB","cost_quota":${charge},`,
    );
    // One read of the upstream's body, one write to the client; the end once the body ended.
    expect(reply.written).toEqual([`data: ${datas[0]}\n\ndata: ${withCost}\n\n`, 'data: [DONE]\n\n']);
    expect(events).toEqual([expect.objectContaining({ prompt_tokens: 3, completion_tokens: 1 })]);
  });

  it('writes what each read of the upstream body completed at once, in one write', async () => {
    const [first, second, third] = [chunk('one'), chunk(' two'), chunk(' three')].map(
      (c) => `data: ${JSON.stringify(c)}\n\n`,
    );
    // The second event is cut across two reads: it goes out with the read that completed it.
    const cut = second!.length - 5;
    const { relay, context } = setup(1_000_000, [
      first!,
      second!.slice(0, cut),
      second!.slice(cut) + third!,
      'data: [DONE]\n\n',
    ]);
    const reply = new RecordingReply();
    await relay.handle(context, openAiChatProtocol, request({ stream: true }), BODY_BYTES, reply);

    expect(reply.written).toHaveLength(3);
    expect(reply.written[0]).toContain('"content":"one"');
    expect(reply.written[1]).toContain('"content":" two"');
    expect(reply.written[1]).toContain('"content":" three"');
    expect(reply.written[2]).toMatch(/data: \[DONE\]\n\n$/);
  });

  it('observes the time to first token after the write that carried it, not on its way', async () => {
    const { relay, context, metrics } = setup(1_000_000, sse([chunk('Hello'), chunk(' world')]));
    const observed = jest.spyOn(metrics, 'firstToken');
    const reply = new RecordingReply();
    const observedAtWrite: number[] = [];
    const write = reply.write.bind(reply);
    reply.write = (text) => {
      observedAtWrite.push(observed.mock.calls.length);
      return write(text);
    };
    await relay.handle(context, openAiChatProtocol, request({ stream: true }), BODY_BYTES, reply);

    expect(observedAtWrite[0]).toBe(0);
    expect(observed).toHaveBeenCalledTimes(1);
    expect(observed).toHaveBeenCalledWith('openai', 'gpt', 0);
  });

  it('charges a client that left mid-stream for the prompt and what was generated', async () => {
    // Three reads: the client is gone at the third write, after the upstream generated it.
    const [one, two, three] = sse([chunk('one two'), chunk(' three'), chunk(' four five six')]).split(
      /(?<=\n\n)/,
    );
    const { events, relay, context } = setup(1_000_000, [one!, two!, three!, 'data: [DONE]\n\n']);
    const reply = new RecordingReply();
    reply.goneAfterWrites = 2;
    await relay.handle(context, openAiChatProtocol, request({ stream: true }), BODY_BYTES, reply);

    expect(events[0]).toMatchObject({ status: 'client_aborted', prompt_tokens: 10, completion_tokens: 6 });
  });

  it('frees the reservation and charges nothing when no channel served the call', async () => {
    const failure = new RelayError(ErrorCode.UpstreamError, 'upstream down');
    const { kv, events, relay, context } = setup(1_000_000, failure);
    await expect(
      relay.handle(context, openAiChatProtocol, request(), BODY_BYTES, new RecordingReply()),
    ).rejects.toBe(failure);
    expect(events).toEqual([]);
    expect(await kv.outstanding(userAccount(7))).toBe(0);
  });

  it('reserves the body size as the prompt bound plus the allowed answer, without tokenising, while the balance is ample', async () => {
    const estimate = chargeQuota(
      { prompt_tokens: BODY_BYTES, completion_tokens: MAX_TOKENS, cached_tokens: 0 },
      PRICE,
    );
    const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };
    const ample = setup(estimate * 64, JSON.stringify(anOpenAiAnswer(usage)));
    await ample.relay.handle(ample.context, openAiChatProtocol, request(), BODY_BYTES, new RecordingReply());
    expect(ample.dispatch).toHaveBeenCalled();
    expect(ample.tokens.countPromptTokens).not.toHaveBeenCalled();
  });

  it('counts the prompt when the balance is tight, and says in the 402 how many output tokens it affords', async () => {
    // The counter says 10; the estimate adds a margin for other tokenizers: 10 × 1.25 + 16 = 29.
    const estimate = chargeQuota(
      { prompt_tokens: 29, completion_tokens: MAX_TOKENS, cached_tokens: 0 },
      PRICE,
    );
    const enough = setup(estimate, sse([chunk('hi')]));
    await enough.relay.handle(
      enough.context,
      openAiChatProtocol,
      request({ stream: true }),
      BODY_BYTES,
      new RecordingReply(),
    );
    expect(enough.tokens.countPromptTokens).toHaveBeenCalled();
    expect(enough.dispatch).toHaveBeenCalled();

    const short = setup(estimate - 1, '{}');
    const refused = short.relay.handle(
      short.context,
      openAiChatProtocol,
      request(),
      BODY_BYTES,
      new RecordingReply(),
    );
    await expect(refused).rejects.toMatchObject({
      status: 402,
      message: expect.stringContaining(
        `You requested up to ${MAX_TOKENS} output tokens, but can only afford ${MAX_TOKENS - 1}`,
      ),
    });
    expect(short.dispatch).not.toHaveBeenCalled();
  });

  it('serves about as many concurrent calls as a small balance pays for, not a fraction of them', async () => {
    const usage = { prompt_tokens: 10, completion_tokens: MAX_TOKENS, total_tokens: 10 + MAX_TOKENS };
    const real = chargeQuota({ prompt_tokens: 10, completion_tokens: MAX_TOKENS, cached_tokens: 0 }, PRICE);
    const { relay, context, kv } = setup(30 * real, JSON.stringify(anOpenAiAnswer(usage)));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 80 }, () =>
        relay.handle(context, openAiChatProtocol, request(), BODY_BYTES, new RecordingReply()),
      ),
    );
    const served = outcomes.filter((o) => o.status === 'fulfilled').length;
    // Each holds its counted prompt (10 tokens and the margin: 29) and its whole answer; with the
    // body's 1 000 bytes as the prompt bound, 2 of them were served.
    const estimate = chargeQuota(
      { prompt_tokens: 29, completion_tokens: MAX_TOKENS, cached_tokens: 0 },
      PRICE,
    );
    expect(served).toBe(Math.floor((30 * real) / estimate));
    expect(served).toBeGreaterThan(20);
    expect(await kv.outstanding(userAccount(7))).toBeLessThanOrEqual(30 * real);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect((outcome.reason as Error).message).toMatch(/afford|in flight/);
    }
  });

  it('counts the prompt locally only when the upstream reports no usage', async () => {
    const { events, relay, context, tokens } = setup(1_000_000, sse([chunk('one two three')]));
    await relay.handle(
      context,
      openAiChatProtocol,
      request({ stream: true }),
      BODY_BYTES,
      new RecordingReply(),
    );

    expect(tokens.countPromptTokens).toHaveBeenCalledTimes(1);
    expect(events[0]).toMatchObject({ status: 'success', prompt_tokens: 10, completion_tokens: 3 });
  });

  it('tells a client that asked for usage the counted usage and its cost when the upstream reported none', async () => {
    const { events, relay, context } = setup(1_000_000, sse([chunk('one two three')]));
    const reply = new RecordingReply();
    const asked = request({ stream: true, stream_options: { include_usage: true } });
    await relay.handle(context, openAiChatProtocol, asked, BODY_BYTES, reply);

    const frames = reply.text.split('\n\n').filter((frame) => frame !== '');
    expect(frames.at(-1)).toBe('data: [DONE]');
    const last = JSON.parse(frames.at(-2)!.slice('data: '.length)) as {
      choices: unknown[];
      usage: Record<string, unknown>;
    };
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({
      prompt_tokens: 10,
      completion_tokens: 3,
      cost_quota: events[0]!.quota,
    });
    expect(events[0]).toMatchObject({ status: 'success', prompt_tokens: 10, completion_tokens: 3 });
    expect(events[0]!.quota).toBeGreaterThan(0);
  });

  it('gives an Anthropic client the counted usage in its message_delta when the upstream reported none', async () => {
    const { events, relay, context } = setup(1_000_000, sse([chunk('one two three')]));
    const reply = new RecordingReply();
    const body = {
      model: 'gpt',
      max_tokens: MAX_TOKENS,
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    };
    await relay.handle(
      { ...context, protocol: 'anthropic' },
      anthropicMessagesProtocol,
      { body },
      BODY_BYTES,
      reply,
    );

    const delta = reply.text
      .split('\n\n')
      .find((frame) => frame.startsWith('event: message_delta'))!
      .split('\n')
      .find((line) => line.startsWith('data: '))!;
    const usage = (JSON.parse(delta.slice('data: '.length)) as { usage: Record<string, unknown> }).usage;
    expect(usage).toMatchObject({ output_tokens: 3 });
    expect(events[0]).toMatchObject({ status: 'success', completion_tokens: 3 });
  });

  /** An OpenAI-style answer with no `usage` at all, as some upstreams send a plain answer. */
  const anAnswerWithoutUsage = () => {
    const { usage: _none, ...answer } = anOpenAiAnswer({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
    });
    return JSON.stringify(answer);
  };

  it('tells an OpenAI client of a plain call the counted tokens and their cost when the upstream reported no usage', async () => {
    const { events, relay, context } = setup(1_000_000, anAnswerWithoutUsage());
    const reply = new RecordingReply();
    await relay.handle(context, openAiChatProtocol, request(), BODY_BYTES, reply);

    const charge = events[0]!.quota;
    expect(events[0]).toMatchObject({ status: 'success', prompt_tokens: 10, completion_tokens: 1 });
    expect(reply.json?.body).toMatchObject({
      usage: {
        prompt_tokens: 10,
        completion_tokens: 1,
        total_tokens: 11,
        cost: Number(callCost(charge, IN_RUBLES).amount),
        cost_quota: charge,
      },
    });
  });

  it('tells an Anthropic client of a plain call the counted tokens when the upstream reported no usage', async () => {
    const { events, relay, context } = setup(1_000_000, anAnswerWithoutUsage());
    const reply = new RecordingReply();
    const body = { model: 'gpt', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'hi' }] };
    await relay.handle(
      { ...context, protocol: 'anthropic' },
      anthropicMessagesProtocol,
      { body },
      BODY_BYTES,
      reply,
    );

    expect(events[0]).toMatchObject({ status: 'success', prompt_tokens: 10, completion_tokens: 1 });
    expect(reply.json?.body).toMatchObject({ usage: { input_tokens: 10, output_tokens: 1 } });
  });

  it('refuses with 402 before any upstream call when the balance cannot cover the estimate', async () => {
    const { dispatch, relay, context } = setup(1, '{}');
    await expect(
      relay.handle(context, openAiChatProtocol, request(), BODY_BYTES, new RecordingReply()),
    ).rejects.toMatchObject({
      status: 402,
    });
    expect(dispatch).not.toHaveBeenCalled();
  });
});

describe('withAnswerLimit', () => {
  const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Hi' }] };

  it("asks OpenAI's own API and Azure with max_completion_tokens, which its reasoning models require", () => {
    expect(withAnswerLimit(request, 700, adapterForChannelType(1))).toEqual({
      ...request,
      max_completion_tokens: 700,
    });
    expect(withAnswerLimit(request, 700, { name: 'azure', family: 'azure' })).toEqual({
      ...request,
      max_completion_tokens: 700,
    });
  });

  it('asks the OpenAI-compatible providers with max_tokens, the field they know', () => {
    expect(withAnswerLimit(request, 700, { name: 'deepseek', family: 'openai' })).toEqual({
      ...request,
      max_tokens: 700,
    });
  });
});

describe('ChatRelay: a web chat call asking reasoning_effort on an Anthropic channel, the balance tight', () => {
  /** The tight balance's prompt estimate: the mocked count (10) with the tokenizer margin. */
  const COUNTED_PROMPT = Math.ceil(10 * 1.25) + 16;
  const paysFor = (answerTokens: number) =>
    chargeQuota({ prompt_tokens: COUNTED_PROMPT, completion_tokens: answerTokens, cached_tokens: 0 }, PRICE);

  function sentToAnthropic(balance: number) {
    const answer = JSON.stringify(
      anOpenAiAnswer({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 }),
    );
    // Relay's default answer length: a call naming none reserves this much.
    const fixture = setup(balance, answer, 4_096);
    const sent: { body?: Record<string, unknown> } = {};
    const dispatch = fixture.dispatch as unknown as jest.Mock;
    const answered = dispatch.getMockImplementation() as (...args: unknown[]) => Promise<Dispatched>;
    dispatch.mockImplementation(async (...args: unknown[]) => {
      sent.body = bodyBuiltFor(args, CHANNEL_TYPES.anthropic, 'claude-sonnet-4-5');
      return answered(...args);
    });
    const reply = new RecordingReply();
    const handled = fixture.relay.handle(
      { ...fixture.context, reportsCharge: true },
      openAiChatProtocol,
      request({ max_tokens: undefined, reasoning_effort: 'high' }),
      BODY_BYTES,
      reply,
    );
    return { handled, sent, dispatch };
  }

  it('is sent a thinking budget inside the answer limit fitted to the balance', async () => {
    const { handled, sent } = sentToAnthropic(paysFor(3_000));
    await handled;
    const maxTokens = sent.body?.['max_tokens'] as number;
    expect(maxTokens).toBeGreaterThanOrEqual(3_000);
    expect(maxTokens).toBeLessThan(4_096);
    expect(sent.body?.['thinking']).toEqual({ type: 'enabled', budget_tokens: Math.floor(maxTokens / 2) });
  });

  it("is refused with the balance's 402 when it pays for less than the smallest budget and an answer", async () => {
    const { handled, dispatch } = sentToAnthropic(paysFor(1_000));
    await expect(handled).rejects.toMatchObject({ code: ErrorCode.InsufficientQuota });
    await expect(handled).rejects.toThrow(/can only afford/);
    expect(dispatch).not.toHaveBeenCalled();
  });
});
