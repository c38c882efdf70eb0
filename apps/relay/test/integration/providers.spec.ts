import { Agent, request } from 'undici';
import {
  completionText,
  countPromptTokens,
  startFakeUpstream,
  TOOL_CALL_MARKER,
  type FakeUpstream,
} from '@tollgate/testing';
import { CHANNEL_TYPES } from '@tollgate/contracts';
import {
  adapterForChannelType,
  type ChannelTarget,
  type ProviderAdapter,
  type UpstreamHttpRequest,
} from '../../src/providers';
import { SseDecoder } from '../../src/sse/sse';
import type {
  ChatCompletionChunk,
  ChatCompletionRequest,
  ChatCompletionResponse,
  ToolCallDelta,
} from '../../src/canonical';

const COMPLETION_TOKENS = 8;
const SYSTEM = 'You answer briefly.';
const context = { created: 1_700_000_000, model: 'm' };

interface Family {
  name: string;
  channelType: number;
  target: (upstream: FakeUpstream) => ChannelTarget;
}

const FAMILIES: Family[] = [
  {
    name: 'OpenAI',
    channelType: CHANNEL_TYPES.openai,
    target: (upstream) => ({
      baseUrl: upstream.url,
      apiKey: 'sk-fake-openai-key',
      upstreamModel: 'gpt-4o-mini',
    }),
  },
  {
    name: 'Azure OpenAI',
    channelType: CHANNEL_TYPES.azure,
    target: (upstream) => ({ baseUrl: upstream.url, apiKey: 'fake-azure-key', upstreamModel: 'gpt-4o-mini' }),
  },
  {
    name: 'Anthropic',
    channelType: CHANNEL_TYPES.anthropic,
    target: (upstream) => ({
      baseUrl: upstream.url,
      apiKey: 'sk-ant-fake-anthropic-key',
      upstreamModel: 'claude-haiku-5-5',
    }),
  },
  {
    name: 'Gemini',
    channelType: CHANNEL_TYPES.gemini,
    target: (upstream) => ({
      baseUrl: upstream.url,
      apiKey: 'fake-gemini-key',
      upstreamModel: 'gemini-2.5-flash',
    }),
  },
];

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

function chat(userText: string, extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest {
  return {
    model: 'client-model',
    temperature: 0.3,
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: userText },
    ],
    ...extra,
  };
}

let upstream: FakeUpstream;
const agent = new Agent({ bodyTimeout: 0 });

beforeAll(async () => {
  upstream = await startFakeUpstream({ completionTokens: COMPLETION_TOKENS, chunks: 4 });
});

afterAll(async () => {
  await agent.close();
  await upstream.close();
});

async function send(built: UpstreamHttpRequest) {
  const response = await request(built.url, {
    method: built.method,
    headers: built.headers,
    body: built.body,
    dispatcher: agent,
  });
  return response;
}

async function plain(
  adapter: ProviderAdapter,
  target: ChannelTarget,
  body: ChatCompletionRequest,
): Promise<ChatCompletionResponse> {
  const response = await send(adapter.buildChatRequest(body, target));
  const json: unknown = await response.body.json();
  expect(response.statusCode).toBe(200);
  return adapter.parseChatResponse(json, context);
}

async function streamed(adapter: ProviderAdapter, target: ChannelTarget, body: ChatCompletionRequest) {
  const built = adapter.buildChatRequest({ ...body, stream: true }, target);
  expect(built.stream).toBe(true);
  const response = await send(built);
  expect(response.statusCode).toBe(200);
  const decoder = new SseDecoder();
  const transformer = adapter.createChatStreamTransformer(context);
  const chunks: ChatCompletionChunk[] = [];
  for await (const piece of response.body) {
    for (const event of decoder.push(piece as Buffer)) chunks.push(...transformer.push(event));
  }
  for (const event of decoder.end()) chunks.push(...transformer.push(event));
  chunks.push(...transformer.end());
  return { chunks, usage: transformer.usage() };
}

function joinedToolCalls(chunks: ChatCompletionChunk[]) {
  const calls = new Map<number, { id?: string; name?: string; arguments: string }>();
  for (const delta of chunks.flatMap(
    (chunk) => chunk.choices[0]?.delta.tool_calls ?? [],
  ) as ToolCallDelta[]) {
    const call = calls.get(delta.index) ?? { arguments: '' };
    call.id = delta.id ?? call.id;
    call.name = delta.function?.name ?? call.name;
    call.arguments += delta.function?.arguments ?? '';
    calls.set(delta.index, call);
  }
  return [...calls.values()];
}

describe.each(FAMILIES)('$name adapter against the fake upstream', (family) => {
  const adapter = adapterForChannelType(family.channelType);
  const userText = `Say hello to ${family.name}`;
  const expectedUsage = {
    prompt_tokens: countPromptTokens([SYSTEM, userText]),
    completion_tokens: COMPLETION_TOKENS,
    cached_tokens: 0,
  };

  it('gets a plain answer whose text and usage are the upstream honest counts', async () => {
    const answer = await plain(adapter, family.target(upstream), chat(userText));
    expect(answer.choices[0]!.message.content).toBe(completionText(COMPLETION_TOKENS, 1).text);
    expect(answer.choices[0]!.finish_reason).toBe('stop');
    expect(answer.usage).toMatchObject({
      prompt_tokens: expectedUsage.prompt_tokens,
      completion_tokens: COMPLETION_TOKENS,
      total_tokens: expectedUsage.prompt_tokens + COMPLETION_TOKENS,
    });
  });

  it('streams the same text chunk by chunk, ending with the finish reason and the usage', async () => {
    const { chunks, usage } = await streamed(adapter, family.target(upstream), chat(userText));
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(completionText(COMPLETION_TOKENS, 1).text);
    expect(chunks.filter((chunk) => (chunk.choices[0]?.delta.content ?? '') !== '').length).toBeGreaterThan(
      1,
    );
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason != null)?.choices[0]?.finish_reason).toBe(
      'stop',
    );
    expect(usage).toEqual(expectedUsage);
    expect(chunks[chunks.length - 1]!.usage).toMatchObject({ prompt_tokens: expectedUsage.prompt_tokens });
  });

  it('returns a tool call when the prompt asks for one, plain and streamed', async () => {
    const body = chat(`Weather please, ${TOOL_CALL_MARKER}`, { tools: [weatherTool] });
    const answer = await plain(adapter, family.target(upstream), body);
    expect(answer.choices[0]!.finish_reason).toBe('tool_calls');
    const call = answer.choices[0]!.message.tool_calls![0]!;
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'fake-city' });

    const { chunks } = await streamed(adapter, family.target(upstream), body);
    const [streamedCall] = joinedToolCalls(chunks);
    expect(streamedCall?.name).toBe('get_weather');
    expect(streamedCall?.id).toEqual(expect.any(String));
    expect(JSON.parse(streamedCall!.arguments)).toEqual({ city: 'fake-city' });
  });
});

describe('OpenAI pass-through operations against the fake upstream', () => {
  const adapter = adapterForChannelType(CHANNEL_TYPES.openai);
  const target = FAMILIES[0]!.target;

  it('builds embeddings requests the upstream serves, with usage in the answer', async () => {
    const response = await send(
      adapter.buildPassThroughRequest(
        'embeddings',
        { model: 'client-model', input: 'hello world' },
        target(upstream),
      ),
    );
    const body = (await response.body.json()) as { data: unknown[]; usage: { prompt_tokens: number } };
    expect(response.statusCode).toBe(200);
    expect(body.data).toHaveLength(1);
    expect(body.usage.prompt_tokens).toBe(countPromptTokens(['hello world']));
  });
});
