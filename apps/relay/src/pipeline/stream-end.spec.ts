import { CHANNEL_TYPES, CHAT_CHARGE_EVENT, chargeQuota, type UsageRecorded } from '@tollgate/contracts';
import { MemoryKvStore } from '@tollgate/kv';
import { MetricsService } from '@tollgate/platform';
import { anAdmission } from '../../test/support/admission';
import { aCallContext, aChannel, aModelPrice } from '../../test/support/fixtures';
import { aMetering, silentLogger } from '../../test/support/metering';
import { RecordingReply } from '../../test/support/recording-reply';
import { anthropicMessagesProtocol } from '../dialects/anthropic/messages.protocol';
import type { ChatClientProtocol } from '../dialects/chat-client-protocol';
import { openAiChatProtocol } from '../dialects/openai/chat.protocol';
import { IN_DOLLARS } from '../pricing/call-cost';
import { adapterForChannelType } from '../providers';
import type { CallContext } from './call-context';
import { ChatRelay } from './chat-relay';
import { RelayMetrics } from './relay-metrics';
import { endsAnswer, parsedEventData, relaySseStream } from './sse-relay';
import type { Dispatched, UpstreamDispatcher } from './upstream-dispatcher';

const PRICE = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };
const BODY_BYTES = 1000;
/** The prompt as the relay's counter counts it when the upstream reports no usage. */
const COUNTED_PROMPT = 10;
const countWords = (text: string) => text.split(/\s+/).filter((w) => w !== '').length;

/** An upstream body that gives `pieces`, one read each, then fails as a connection reset does. */
async function* brokenBody(pieces: string[]): AsyncGenerator<Buffer> {
  for (const piece of pieces) yield Buffer.from(piece);
  throw Object.assign(new TypeError('terminated'), { cause: new Error('other side closed') });
}

const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const event = (type: string, payload: object) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;

const openAiChunk = (delta: object, finish: string | null = null) =>
  data({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const OPENAI_USAGE = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };
const openAiUsageChunk = data({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [],
  usage: OPENAI_USAGE,
});
const OPENAI_ANSWER = [
  openAiChunk({ role: 'assistant', content: 'one two' }),
  openAiChunk({ content: ' three' }),
];

/** Anthropic's stream up to message_delta (stop reason, final usage): message_stop never came. */
const ANTHROPIC_UNTIL_DELTA = [
  event('message_start', {
    message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 21, output_tokens: 1 } },
  }),
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'one two three' } }),
  event('content_block_stop', { index: 0 }),
  event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } }),
];

/** Gemini's stream, its last event with the finish reason and the usage: then the connection broke. */
const GEMINI_FINISHED = [
  data({ candidates: [{ content: { role: 'model', parts: [{ text: 'one two' }] } }], responseId: 'r1' }),
  data({
    candidates: [{ content: { role: 'model', parts: [{ text: ' three' }] }, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: 17, candidatesTokenCount: 3, totalTokenCount: 20 },
    responseId: 'r1',
  }),
];

function setup(channelType: number, pieces: string[]) {
  const events: UsageRecorded[] = [];
  const metrics = new RelayMetrics(new MetricsService('relay-test'));
  const dispatch = async (): Promise<Dispatched> => ({
    response: { statusCode: 200, headers: {}, body: brokenBody(pieces) } as unknown as Dispatched['response'],
    route: { channel: aChannel({ id: 9, type: channelType }), upstreamModel: 'upstream-model' },
    adapter: adapterForChannelType(channelType),
    release: () => undefined,
    sentAt: 0,
    url: 'https://upstream.example/v1',
  });
  const relay = new ChatRelay({
    ...anAdmission([aModelPrice('gpt')]),
    metering: aMetering({
      kv: new MemoryKvStore(),
      events,
      metrics,
      costTerms: IN_DOLLARS,
    }),
    dispatcher: { dispatch } as unknown as UpstreamDispatcher,
    metrics,
    logger: silentLogger,
    tokens: { countTextTokens: countWords, countPromptTokens: () => COUNTED_PROMPT },
    now: () => 0,
  });
  const call = async (protocol: ChatClientProtocol, body: object, extra: Partial<CallContext> = {}) => {
    const reply = new RecordingReply();
    await relay.handle(
      aCallContext(extra),
      protocol,
      { body: { model: 'gpt', messages: [{ role: 'user', content: 'hi' }], stream: true, ...body } },
      BODY_BYTES,
      reply,
    );
    return { reply, event: events[0]! };
  };
  return { call };
}

const cost = (usage: { prompt_tokens: number; completion_tokens: number }) =>
  chargeQuota({ ...usage, cached_tokens: 0 }, PRICE);

describe('a chat stream whose upstream connection fails after its answer was complete', () => {
  it('ends as a success, charged by the upstream usage, the client told the cost in its usage chunk', async () => {
    const { call } = setup(CHANNEL_TYPES.openai, [
      ...OPENAI_ANSWER,
      openAiChunk({}, 'stop'),
      openAiUsageChunk,
    ]);
    const { reply, event } = await call(openAiChatProtocol, { stream_options: { include_usage: true } });

    const quota = cost(OPENAI_USAGE);
    expect(event).toMatchObject({ status: 'success', prompt_tokens: 12, completion_tokens: 3, quota });
    expect(reply.text).toContain(`"cost_quota":${quota}`);
    expect(reply.text).not.toContain('error');
    expect(reply.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('charges the counted usage when the break came before the usage chunk, and tells the client that amount', async () => {
    const { call } = setup(CHANNEL_TYPES.openai, [...OPENAI_ANSWER, openAiChunk({}, 'stop')]);
    const { reply, event } = await call(openAiChatProtocol, { stream_options: { include_usage: true } });

    const quota = cost({ prompt_tokens: COUNTED_PROMPT, completion_tokens: 3 });
    expect(event).toMatchObject({ status: 'success', prompt_tokens: COUNTED_PROMPT, completion_tokens: 3 });
    expect(event.quota).toBe(quota);
    const usageChunk = JSON.parse(reply.text.split('\n\n').at(-3)!.slice('data: '.length)) as {
      choices: unknown[];
      usage: { cost_quota: number };
    };
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.cost_quota).toBe(quota);
    expect(reply.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it("ends the chat service's stream with the charge the usage event carries", async () => {
    const { call } = setup(CHANNEL_TYPES.openai, [
      ...OPENAI_ANSWER,
      openAiChunk({}, 'stop'),
      openAiUsageChunk,
    ]);
    const { reply, event } = await call(openAiChatProtocol, {}, { reportsCharge: true });

    expect(event.status).toBe('success');
    const charge = reply.text.split('\n\n').find((frame) => frame.startsWith(`event: ${CHAT_CHARGE_EVENT}`));
    expect(JSON.parse(charge!.split('data: ')[1]!)).toMatchObject({ quota: event.quota });
    expect(event.quota).toBe(cost(OPENAI_USAGE));
  });

  it("sends a Gemini upstream's usage once, as the usage chunk with its cost", async () => {
    const { call } = setup(CHANNEL_TYPES.gemini, GEMINI_FINISHED);
    const { reply, event } = await call(openAiChatProtocol, { stream_options: { include_usage: true } });

    const quota = cost({ prompt_tokens: 17, completion_tokens: 3 });
    expect(event).toMatchObject({ status: 'success', prompt_tokens: 17, completion_tokens: 3, quota });
    expect(reply.text.match(/"cost_quota":/g)).toEqual(['"cost_quota":']);
    expect(reply.text).toContain(`"cost_quota":${quota}`);
    expect(reply.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it("closes an Anthropic client's message after Anthropic's message_delta, with its usage", async () => {
    const { call } = setup(CHANNEL_TYPES.anthropic, ANTHROPIC_UNTIL_DELTA);
    const { reply, event } = await call(anthropicMessagesProtocol, { max_tokens: 20 });

    expect(event).toMatchObject({ status: 'success', prompt_tokens: 21, completion_tokens: 4 });
    expect(event.quota).toBe(cost({ prompt_tokens: 21, completion_tokens: 4 }));
    const frames = reply.text.split('\n\n').filter((frame) => frame !== '');
    expect(frames.at(-1)).toMatch(/^event: message_stop\n/);
    expect(frames.at(-2)).toMatch(/^event: message_delta\n/);
    expect(JSON.parse(frames.at(-2)!.split('data: ')[1]!)).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { input_tokens: 21, output_tokens: 4 },
    });
    expect(reply.text).not.toContain('event: error');
  });
});

describe('a chat stream broken before its answer was complete', () => {
  it('ends with the error event, status upstream_error, charged nothing', async () => {
    const { call } = setup(CHANNEL_TYPES.openai, OPENAI_ANSWER);
    const { reply, event } = await call(openAiChatProtocol, { stream_options: { include_usage: true } });

    expect(event).toMatchObject({ status: 'upstream_error', quota: 0 });
    expect(reply.text).toContain('"error"');
    expect(reply.text).not.toContain('cost_quota');
  });

  it("ends an Anthropic client's stream with an error event before message_delta", async () => {
    const { call } = setup(CHANNEL_TYPES.anthropic, ANTHROPIC_UNTIL_DELTA.slice(0, 3));
    const { reply, event } = await call(anthropicMessagesProtocol, { max_tokens: 20 });

    expect(event).toMatchObject({ status: 'upstream_error', quota: 0 });
    expect(reply.text).toContain('event: error');
    expect(reply.text).not.toContain('message_stop');
  });
});

describe('pass-through event streams', () => {
  it.each([
    ['[DONE]', { data: '[DONE]' }],
    [
      'a completions finish reason',
      { data: JSON.stringify({ choices: [{ text: '', finish_reason: 'stop' }] }) },
    ],
    [
      'response.completed',
      { event: 'response.completed', data: JSON.stringify({ type: 'response.completed' }) },
    ],
    ['response.incomplete', { data: JSON.stringify({ type: 'response.incomplete' }) }],
    ['transcript.text.done', { data: JSON.stringify({ type: 'transcript.text.done', text: 'hi' }) }],
    ['speech.audio.done', { data: JSON.stringify({ type: 'speech.audio.done' }) }],
  ])('end their answer with %s', (_name, sse) => {
    expect(endsAnswer(sse, parsedEventData(sse.data))).toBe(true);
  });

  it.each([
    ['a delta', { data: JSON.stringify({ type: 'response.output_text.delta', delta: 'x' }) }],
    ['response.failed', { data: JSON.stringify({ type: 'response.failed' }) }],
    ['a completions chunk', { data: JSON.stringify({ choices: [{ text: 'x', finish_reason: null }] }) }],
    ['a usage chunk', { data: JSON.stringify({ choices: [], usage: { prompt_tokens: 1 } }) }],
  ])('do not end it with %s', (_name, sse) => {
    expect(endsAnswer(sse, parsedEventData(sse.data))).toBe(false);
  });

  it('are a success when the body fails after the answer was complete, an upstream error before', async () => {
    const pieces = [data({ type: 'response.output_text.delta' }), data({ type: 'response.completed' })];
    const relayed = async (upTo: number) => {
      let complete = false;
      const status = await relaySseStream(
        new RecordingReply(),
        brokenBody(pieces.slice(0, upTo)),
        async (sse) => {
          complete ||= endsAnswer(sse, parsedEventData(sse.data));
        },
        () => complete,
      );
      return status;
    };
    expect(await relayed(2)).toBe('success');
    expect(await relayed(1)).toBe('upstream_error');
  });
});
