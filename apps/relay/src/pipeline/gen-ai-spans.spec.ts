import { Readable } from 'node:stream';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { MetricsService } from '@tollgate/platform';
import { anAdmission } from '../../test/support/admission';
import { aCallContext, aChannel, aModelPrice } from '../../test/support/fixtures';
import { aMetering, silentLogger } from '../../test/support/metering';
import { RecordingReply } from '../../test/support/recording-reply';
import { adapterForChannelType } from '../providers';
import type { ChatCompletionChunk } from '../canonical';
import { openAiChatProtocol } from '../dialects/openai/chat.protocol';
import { ChatRelay } from './chat-relay';
import { GEN_AI, GenAiSpans, passThroughGenAiOperation } from './gen-ai-spans';
import { IN_DOLLARS } from '../pricing/call-cost';
import { RelayMetrics } from './relay-metrics';
import type { Dispatched, UpstreamDispatcher } from './upstream-dispatcher';

const PROMPT = 'the secret plan is under the blue stone';
const ANSWER_WORDS = ['classified', 'launch', 'codes'];

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

function streamedAnswer(): string {
  const chunks = [
    ...ANSWER_WORDS.map((word) => chunk(`${word} `)),
    chunk(undefined, { usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 } }),
  ];
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + 'data: [DONE]\n\n';
}

/** A streamed chat call through the real pipeline, the upstream faked at the dispatcher. */
async function relayOneStream(spans: GenAiSpans | undefined): Promise<RecordingReply> {
  const metrics = new RelayMetrics(new MetricsService('relay-spans-test'));
  let clock = 1_000;
  const now = () => (clock += 5);
  const dispatch = async (): Promise<Dispatched> => ({
    response: {
      statusCode: 200,
      headers: {},
      body: Readable.from([Buffer.from(streamedAnswer())]),
    } as unknown as Dispatched['response'],
    route: { channel: aChannel({ id: 9 }), upstreamModel: 'gpt-4o-mini' },
    adapter: adapterForChannelType(1),
    release: () => undefined,
    sentAt: 1_000,
    url: 'https://user:pass@llm.example.com:8443/v1/chat/completions?key=sk-upstream',
  });
  const relay = new ChatRelay({
    ...anAdmission([aModelPrice('gpt')]),
    metering: aMetering({ metrics, now, spans, costTerms: IN_DOLLARS }),
    dispatcher: { dispatch } as unknown as UpstreamDispatcher,
    metrics,
    logger: silentLogger,
    tokens: { countTextTokens: () => 1, countPromptTokens: () => 1 },
    now,
  });
  const context = aCallContext({ startedAt: 900 });
  const reply = new RecordingReply();
  const body = { model: 'gpt', stream: true, max_tokens: 20, messages: [{ role: 'user', content: PROMPT }] };
  await relay.handle(context, openAiChatProtocol, { body }, 1000, reply);
  return reply;
}

describe('GenAiSpans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => trace.setGlobalTracerProvider(provider));
  afterEach(() => exporter.reset());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
  });

  it("records a served call as a gen_ai CLIENT span: names, counts and the upstream's host only", async () => {
    const reply = await relayOneStream(new GenAiSpans());
    // The client did get the prompt's answer: the text existed, and stayed out of the span.
    expect(reply.written.join('')).toContain('classified');

    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span?.name).toBe('chat gpt-4o-mini');
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.attributes).toEqual({
      [GEN_AI.operationName]: 'chat',
      [GEN_AI.providerName]: 'openai',
      [GEN_AI.system]: 'openai',
      [GEN_AI.requestModel]: 'gpt-4o-mini',
      [GEN_AI.inputTokens]: 11,
      [GEN_AI.outputTokens]: 3,
      'server.address': 'llm.example.com',
      'server.port': 8443,
      'tollgate.model': 'gpt',
      'tollgate.channel.id': 9,
      'tollgate.stream': true,
      'tollgate.call.status': 'success',
    });
    expect(span?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(span?.endTime[0] * 1e3 + span!.endTime[1] / 1e6).toBeGreaterThan(
      span!.startTime[0] * 1e3 + span!.startTime[1] / 1e6,
    );

    const everything = JSON.stringify({
      name: span?.name,
      attributes: span?.attributes,
      events: span?.events,
    });
    for (const text of [PROMPT, ...ANSWER_WORDS, 'pass', 'sk-upstream'])
      expect(everything).not.toContain(text);
  });

  it('records nothing when relay runs without spans (tracing not exported)', async () => {
    await relayOneStream(undefined);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("maps relay's other endpoints to the conventions' operation names", () => {
    expect(passThroughGenAiOperation('embeddings')).toBe('embeddings');
    expect(passThroughGenAiOperation('completions')).toBe('text_completion');
    expect(passThroughGenAiOperation('responses')).toBe('chat');
    expect(passThroughGenAiOperation('images.generations')).toBe('generate_content');
  });
});
