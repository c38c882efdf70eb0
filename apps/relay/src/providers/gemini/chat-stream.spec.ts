import type { ChatCompletionChunk } from '../../canonical';
import { SseDecoder } from '../../sse/sse';
import { GeminiChatStream } from './chat-stream';

const context = { created: 1_700_000_000, model: 'gemini-2.5-flash' };

function event(body: object): string {
  return `data: ${JSON.stringify(body)}\r\n\r\n`;
}

const usage = (candidates: number) => ({
  promptTokenCount: 9,
  candidatesTokenCount: candidates,
  totalTokenCount: 9 + candidates,
  cachedContentTokenCount: 4,
});

const TEXT_STREAM =
  event({
    candidates: [{ content: { parts: [{ text: 'Über ' }], role: 'model' }, index: 0 }],
    usageMetadata: usage(2),
    modelVersion: 'gemini-2.5-flash',
    responseId: 'r1',
  }) +
  event({
    candidates: [
      { content: { parts: [{ text: 'alles 🙂' }], role: 'model' }, finishReason: 'STOP', index: 0 },
    ],
    usageMetadata: usage(5),
    modelVersion: 'gemini-2.5-flash',
    responseId: 'r1',
  });

const TOOL_STREAM = event({
  candidates: [
    {
      content: {
        parts: [{ functionCall: { name: 'get_weather', args: { location: 'Boston' } } }],
        role: 'model',
      },
      finishReason: 'STOP',
    },
  ],
  usageMetadata: usage(6),
  responseId: 'r2',
});

function transform(
  stream: string,
  pieceSize: number,
): { chunks: ChatCompletionChunk[]; transformer: GeminiChatStream } {
  const bytes = new TextEncoder().encode(stream);
  const decoder = new SseDecoder();
  const transformer = new GeminiChatStream(context);
  const chunks: ChatCompletionChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += pieceSize) {
    for (const sse of decoder.push(bytes.subarray(offset, offset + pieceSize)))
      chunks.push(...transformer.push(sse));
  }
  chunks.push(...transformer.end());
  return { chunks, transformer };
}

describe('GeminiChatStream', () => {
  it('turns text events into role, content, finish and one usage chunk, whatever the byte boundaries', () => {
    for (const pieceSize of [1, 3, 50, TEXT_STREAM.length]) {
      const { chunks, transformer } = transform(TEXT_STREAM, pieceSize);
      expect(chunks.map((chunk) => [chunk.choices[0]?.delta, chunk.choices[0]?.finish_reason])).toEqual([
        [{ role: 'assistant', content: '' }, null],
        [{ content: 'Über ' }, null],
        [{ content: 'alles 🙂' }, null],
        [{}, 'stop'],
        [undefined, undefined],
      ]);
      expect(chunks[0]).toMatchObject({ id: 'r1', model: 'gemini-2.5-flash', created: context.created });
      expect(chunks[4]!.usage).toEqual({
        prompt_tokens: 9,
        completion_tokens: 5,
        total_tokens: 14,
        prompt_tokens_details: { cached_tokens: 4 },
      });
      expect(transformer.usage()).toEqual({ prompt_tokens: 9, completion_tokens: 5, cached_tokens: 4 });
    }
  });

  it('turns a functionCall into one whole tool-call delta and finish reason tool_calls', () => {
    const { chunks } = transform(TOOL_STREAM, 4);
    expect(chunks[1]!.choices[0]!.delta.tool_calls).toEqual([
      {
        index: 0,
        id: 'call_r2_0',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"location":"Boston"}' },
      },
    ]);
    expect(chunks[2]!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks[3]!.usage?.completion_tokens).toBe(6);
  });

  it('reports no usage before any event arrived', () => {
    const stream = new GeminiChatStream(context);
    expect(stream.end()).toEqual([]);
    expect(stream.usage()).toBeUndefined();
  });
});
