import { AnthropicChatStream } from '../providers/anthropic/chat-stream';
import { AnthropicClientStream } from './anthropic/stream';
import { GeminiChatStream } from '../providers/gemini/chat-stream';
import { createGeminiClientStreamWriter } from './gemini/stream';
import { OpenAiChatStream } from '../providers/openai/chat-stream';
import type { ChatCompletionChunk, JsonObject } from '../canonical';
import type { ChatStreamTransformer } from '../providers/provider-adapter';
import { SseDecoder } from '../sse/sse';

// Upstream stream bodies as the providers document them (tool use with cache reads), cut into
// network pieces at awkward places, decoded, converted to canonical chunks and re-encoded for
// clients of the other protocols.

const CONTEXT = { created: 1_700_000_000, model: 'requested-model' };

function sseBody(events: Array<{ event?: string; data: unknown }>): string {
  return events
    .map(
      ({ event, data }) =>
        `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`,
    )
    .join('');
}

function canonicalChunks(body: string, transformer: ChatStreamTransformer): ChatCompletionChunk[] {
  const decoder = new SseDecoder();
  const chunks: ChatCompletionChunk[] = [];
  // 7-byte pieces split lines, field names and JSON alike.
  for (let offset = 0; offset < body.length; offset += 7) {
    for (const event of decoder.push(body.slice(offset, offset + 7))) chunks.push(...transformer.push(event));
  }
  for (const event of decoder.end()) chunks.push(...transformer.push(event));
  return [...chunks, ...transformer.end()];
}

function toGeminiClient(chunks: ChatCompletionChunk[]): JsonObject[] {
  const writer = createGeminiClientStreamWriter();
  return [...chunks.flatMap((chunk) => writer.push(chunk)), ...writer.end()];
}

/** The fields of Anthropic's stream events these tests read. */
interface AnthropicEventData {
  type: string;
  index?: number;
  content_block?: unknown;
  delta?: { partial_json?: string; stop_reason?: string };
  usage?: unknown;
}

function toAnthropicClient(chunks: ChatCompletionChunk[]): AnthropicEventData[] {
  const stream = new AnthropicClientStream('client-model');
  return [...chunks.flatMap((chunk) => stream.push(chunk)), ...stream.end()].map(
    (event) => JSON.parse(event.data) as AnthropicEventData,
  );
}

function geminiParts(objects: JsonObject[]): unknown[] {
  return objects.flatMap(
    (object) => (object['candidates'] as Array<{ content: { parts: unknown[] } }>)[0]!.content.parts,
  );
}

const ANTHROPIC_TOOL_USE_WITH_CACHE = sseBody([
  {
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: 'msg_01Weather',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 472,
          cache_creation_input_tokens: 100,
          cache_read_input_tokens: 2048,
          output_tokens: 2,
        },
      },
    },
  },
  {
    event: 'content_block_start',
    data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  },
  { event: 'ping', data: { type: 'ping' } },
  {
    event: 'content_block_delta',
    data: {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'Checking the weather.' },
    },
  },
  { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
  {
    event: 'content_block_start',
    data: {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_01Paris', name: 'get_weather', input: {} },
    },
  },
  ...['', '{"location":', ' "Paris, FR", ', '"unit": "celsius"}'].map((piece) => ({
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: piece } },
  })),
  { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
  {
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 89 },
    },
  },
  { event: 'message_stop', data: { type: 'message_stop' } },
]);

function openAiChunk(delta: JsonObject, finish: string | null = null): JsonObject {
  return {
    id: 'chatcmpl-Par',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

const OPENAI_PARALLEL_TOOL_CALLS_WITH_CACHE = `${sseBody([
  { data: openAiChunk({ role: 'assistant', content: null }) },
  {
    data: openAiChunk({
      tool_calls: [
        { index: 0, id: 'call_Paris', type: 'function', function: { name: 'get_weather', arguments: '' } },
      ],
    }),
  },
  { data: openAiChunk({ tool_calls: [{ index: 0, function: { arguments: '{"location": "Pa' } }] }) },
  { data: openAiChunk({ tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }] }) },
  {
    data: openAiChunk({
      tool_calls: [
        { index: 1, id: 'call_Rome', type: 'function', function: { name: 'get_weather', arguments: '' } },
      ],
    }),
  },
  { data: openAiChunk({ tool_calls: [{ index: 1, function: { arguments: '{"location": "Rome"}' } }] }) },
  { data: openAiChunk({}, 'tool_calls') },
  {
    data: {
      id: 'chatcmpl-Par',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'gpt-4o-2024-08-06',
      choices: [],
      usage: {
        prompt_tokens: 3200,
        completion_tokens: 46,
        total_tokens: 3246,
        prompt_tokens_details: { cached_tokens: 3072, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    },
  },
])}data: [DONE]\n\n`;

const GEMINI_FUNCTION_CALL_WITH_CACHE = sseBody([
  {
    data: {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Let me look that up.' }] }, index: 0 }],
      usageMetadata: { promptTokenCount: 5000, cachedContentTokenCount: 4096, totalTokenCount: 5000 },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'gem-77',
    },
  },
  {
    data: {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'get_weather', args: { location: 'Oslo', unit: 'celsius' } } }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 5000,
        candidatesTokenCount: 21,
        cachedContentTokenCount: 4096,
        totalTokenCount: 5021,
      },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'gem-77',
    },
  },
]);

describe('Anthropic channel, streamed tool use with cache reads', () => {
  const chunks = canonicalChunks(ANTHROPIC_TOOL_USE_WITH_CACHE, new AnthropicChatStream(CONTEXT));

  it('gives OpenAI clients one tool call assembled from its pieces, cache reads as cached tokens and cache writes as cache_write_tokens', () => {
    const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toMatchObject({ index: 0, id: 'toolu_01Paris', function: { name: 'get_weather' } });
    expect(calls.map((call) => call.function?.arguments ?? '').join('')).toBe(
      '{"location": "Paris, FR", "unit": "celsius"}',
    );
    expect(chunks.find((chunk) => chunk.choices[0]?.finish_reason != null)?.choices[0]?.finish_reason).toBe(
      'tool_calls',
    );
    expect(chunks[chunks.length - 1]!.usage).toEqual({
      prompt_tokens: 472 + 100 + 2048,
      completion_tokens: 89,
      total_tokens: 472 + 100 + 2048 + 89,
      prompt_tokens_details: { cached_tokens: 2048, cache_write_tokens: 100 },
    });
  });

  it('gives Gemini clients the text, then the whole call, then usage with the cached tokens', () => {
    const objects = toGeminiClient(chunks);
    expect(geminiParts(objects)).toEqual([
      { text: 'Checking the weather.' },
      {
        functionCall: {
          id: 'toolu_01Paris',
          name: 'get_weather',
          args: { location: 'Paris, FR', unit: 'celsius' },
        },
      },
      { text: '' },
    ]);
    expect(objects[objects.length - 1]).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: {
        promptTokenCount: 2620,
        candidatesTokenCount: 89,
        cachedContentTokenCount: 2048,
        totalTokenCount: 2709,
      },
      modelVersion: 'claude-sonnet-4-5',
      responseId: 'msg_01Weather',
    });
  });
});

describe('OpenAI channel, streamed parallel tool calls with cached prompt tokens', () => {
  const chunks = canonicalChunks(OPENAI_PARALLEL_TOOL_CALLS_WITH_CACHE, new OpenAiChatStream());

  it('gives Anthropic clients one tool_use block per call and the cached tokens as cache reads', () => {
    const events = toAnthropicClient(chunks);
    const starts = events.filter((event) => event.type === 'content_block_start');
    expect(starts.map((event) => event.content_block)).toEqual([
      { type: 'tool_use', id: 'call_Paris', name: 'get_weather', input: {} },
      { type: 'tool_use', id: 'call_Rome', name: 'get_weather', input: {} },
    ]);
    const argumentsOf = (index: number) =>
      events
        .filter((event) => event.type === 'content_block_delta' && event.index === index)
        .map((event) => event.delta?.partial_json)
        .join('');
    expect(JSON.parse(argumentsOf(0))).toEqual({ location: 'Paris' });
    expect(JSON.parse(argumentsOf(1))).toEqual({ location: 'Rome' });
    expect(events.find((event) => event.type === 'message_delta')).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 128, output_tokens: 46, cache_read_input_tokens: 3072 },
    });
  });

  it('gives Gemini clients each call whole, in order, and the cached tokens in usageMetadata', () => {
    const objects = toGeminiClient(chunks);
    expect(geminiParts(objects)).toEqual([
      { functionCall: { id: 'call_Paris', name: 'get_weather', args: { location: 'Paris' } } },
      { functionCall: { id: 'call_Rome', name: 'get_weather', args: { location: 'Rome' } } },
      { text: '' },
    ]);
    expect(objects[objects.length - 1]!['usageMetadata']).toEqual({
      promptTokenCount: 3200,
      candidatesTokenCount: 46,
      cachedContentTokenCount: 3072,
      totalTokenCount: 3246,
    });
  });
});

describe('Gemini channel, streamed function call with cached content', () => {
  const transformer = new GeminiChatStream(CONTEXT);
  const chunks = canonicalChunks(GEMINI_FUNCTION_CALL_WITH_CACHE, transformer);

  it('gives Anthropic clients the text block, a tool_use block with the arguments and cache reads', () => {
    const events = toAnthropicClient(chunks);
    expect(events.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[4]!.content_block).toEqual({
      type: 'tool_use',
      id: 'call_gem-77_0',
      name: 'get_weather',
      input: {},
    });
    expect(JSON.parse(events[5]!.delta?.partial_json ?? '')).toEqual({ location: 'Oslo', unit: 'celsius' });
    expect(events[7]).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { input_tokens: 904, output_tokens: 21, cache_read_input_tokens: 4096 },
    });
  });

  it('reports the usage of the last event, cached tokens included, for billing', () => {
    expect(transformer.usage()).toEqual({ prompt_tokens: 5000, completion_tokens: 21, cached_tokens: 4096 });
  });
});
