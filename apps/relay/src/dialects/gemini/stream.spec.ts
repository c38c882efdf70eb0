import type { ChatCompletionChunk, JsonObject } from '../../canonical';
import { GeminiChatStream } from '../../providers/gemini/chat-stream';
import { createGeminiClientStreamWriter } from './stream';

function chunk(
  delta: ChatCompletionChunk['choices'][number]['delta'],
  finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-7',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

function usageChunk(usage: NonNullable<ChatCompletionChunk['usage']>): ChatCompletionChunk {
  return {
    id: 'chatcmpl-7',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [],
    usage,
  };
}

function run(chunks: ChatCompletionChunk[]): JsonObject[][] {
  const writer = createGeminiClientStreamWriter();
  return [...chunks.map((c) => writer.push(c)), writer.end()];
}

function partsOf(object: JsonObject): unknown[] {
  return (object['candidates'] as Array<{ content: { parts: unknown[] } }>)[0]!.content.parts;
}

describe('createGeminiClientStreamWriter', () => {
  it('streams text deltas as they come and puts finishReason and usage with cached tokens on the last object', () => {
    const outputs = run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Once upon' }),
      chunk({ content: ' a time' }),
      chunk({}, 'stop'),
      usageChunk({
        prompt_tokens: 1200,
        completion_tokens: 40,
        total_tokens: 1240,
        prompt_tokens_details: { cached_tokens: 1024 },
      }),
    ]);
    expect(outputs.map((objects) => objects.length)).toEqual([0, 1, 1, 0, 0, 1]);
    expect(outputs[1]![0]).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Once upon' }] }, index: 0 }],
      modelVersion: 'gpt-4o-mini',
      responseId: 'chatcmpl-7',
    });
    expect(partsOf(outputs[2]![0]!)).toEqual([{ text: ' a time' }]);
    expect(outputs[5]![0]).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: 1200,
        candidatesTokenCount: 40,
        cachedContentTokenCount: 1024,
        totalTokenCount: 1240,
      },
      modelVersion: 'gpt-4o-mini',
      responseId: 'chatcmpl-7',
    });
  });

  it('emits each tool call whole once its arguments are complete', () => {
    const outputs = run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Checking.' }),
      chunk({
        tool_calls: [
          { index: 0, id: 'call_A', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      chunk({
        tool_calls: [
          { index: 1, id: 'call_B', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      }),
      chunk({}, 'tool_calls'),
      usageChunk({ prompt_tokens: 50, completion_tokens: 12, total_tokens: 62 }),
    ]);
    expect(outputs.map((objects) => objects.length)).toEqual([0, 1, 0, 0, 0, 1, 1, 0, 1]);
    expect(partsOf(outputs[5]![0]!)).toEqual([
      { functionCall: { id: 'call_A', name: 'get_weather', args: { city: 'Oslo' } } },
    ]);
    expect(partsOf(outputs[6]![0]!)).toEqual([
      { functionCall: { id: 'call_B', name: 'get_time', args: {} } },
    ]);
    expect(outputs[8]![0]).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 12, totalTokenCount: 62 },
    });
  });

  it('streams reasoning as thought parts and reports reasoning tokens as thoughts', () => {
    const outputs = run([
      chunk({ reasoning_content: 'Hmm.' }),
      chunk({ content: 'Yes.' }, 'length'),
      usageChunk({
        prompt_tokens: 5,
        completion_tokens: 30,
        total_tokens: 35,
        completion_tokens_details: { reasoning_tokens: 20 },
      }),
    ]);
    expect(partsOf(outputs[0]![0]!)).toEqual([{ text: 'Hmm.', thought: true }]);
    expect(outputs[3]![0]).toMatchObject({
      candidates: [{ finishReason: 'MAX_TOKENS' }],
      usageMetadata: {
        promptTokenCount: 5,
        candidatesTokenCount: 10,
        thoughtsTokenCount: 20,
        totalTokenCount: 35,
      },
    });
  });

  it('closes a cut stream with its open tool call, STOP and zero usage', () => {
    const writer = createGeminiClientStreamWriter();
    writer.push(
      chunk({ tool_calls: [{ index: 0, id: 'call_Z', function: { name: 'f', arguments: '{"a":1}' } }] }),
    );
    expect(writer.end()).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { id: 'call_Z', name: 'f', args: { a: 1 } } }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 },
        modelVersion: 'gpt-4o-mini',
        responseId: 'chatcmpl-7',
      },
    ]);
  });

  it('gives a Gemini client on a Gemini channel back the text, calls and usage the upstream streamed', () => {
    const upstreamEvents = [
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Sure, ' }] }, index: 0 }],
        usageMetadata: { promptTokenCount: 90, totalTokenCount: 90 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'resp-5',
      },
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ text: 'turning on.' }, { functionCall: { name: 'enable_lights', args: {} } }],
            },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: 90,
          candidatesTokenCount: 7,
          cachedContentTokenCount: 64,
          totalTokenCount: 97,
        },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'resp-5',
      },
    ];
    const upstream = new GeminiChatStream({ created: 1, model: 'gemini-2.5-flash' });
    const writer = createGeminiClientStreamWriter();
    const canonical = [
      ...upstreamEvents.flatMap((event) => upstream.push({ data: JSON.stringify(event) })),
      ...upstream.end(),
    ];
    const objects = [...canonical.flatMap((c) => writer.push(c)), ...writer.end()];
    expect(objects.flatMap(partsOf)).toEqual([
      { text: 'Sure, ' },
      { text: 'turning on.' },
      { functionCall: { id: 'call_resp-5_0', name: 'enable_lights', args: {} } },
      { text: '' },
    ]);
    expect(objects[objects.length - 1]).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: {
        promptTokenCount: 90,
        candidatesTokenCount: 7,
        cachedContentTokenCount: 64,
        totalTokenCount: 97,
      },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-5',
    });
  });
});
