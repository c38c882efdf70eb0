import { anthropicFieldsOf, type ChatCompletionChunk } from '../../canonical';
import { UpstreamStreamError } from '../provider-errors';
import { SseDecoder } from '../../sse/sse';
import { AnthropicChatStream } from './chat-stream';

const context = { created: 1_700_000_000, model: 'claude-x' };

function frame(event: string, data: object): string {
  return `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
}

const MESSAGE = {
  id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
  type: 'message',
  role: 'assistant',
  content: [],
  model: 'claude-sonnet-4-5',
  stop_reason: null,
  stop_sequence: null,
  usage: { input_tokens: 25, cache_read_input_tokens: 10, cache_creation_input_tokens: 0, output_tokens: 1 },
};

const TEXT_STREAM =
  frame('message_start', { message: MESSAGE }) +
  frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
  frame('ping', {}) +
  frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Héllo' } }) +
  frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' wörld 🙂' } }) +
  frame('content_block_stop', { index: 0 }) +
  frame('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 15 },
  }) +
  frame('message_stop', {});

const TOOL_STREAM =
  frame('message_start', { message: { ...MESSAGE, usage: { input_tokens: 472, output_tokens: 2 } } }) +
  frame('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
  frame('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Checking.' } }) +
  frame('content_block_stop', { index: 0 }) +
  frame('content_block_start', {
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', input: {} },
  }) +
  frame('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '' } }) +
  frame('content_block_delta', {
    index: 1,
    delta: { type: 'input_json_delta', partial_json: '{"location": "San Fra' },
  }) +
  frame('content_block_delta', {
    index: 1,
    delta: { type: 'input_json_delta', partial_json: 'ncisco, CA"}' },
  }) +
  frame('content_block_stop', { index: 1 }) +
  frame('message_delta', {
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 89 },
  }) +
  frame('message_stop', {});

/** Feeds the stream through the SSE decoder in pieces of `pieceSize` bytes. */
function transform(
  stream: string,
  pieceSize: number,
): { chunks: ChatCompletionChunk[]; transformer: AnthropicChatStream } {
  const bytes = new TextEncoder().encode(stream);
  const decoder = new SseDecoder();
  const transformer = new AnthropicChatStream(context);
  const chunks: ChatCompletionChunk[] = [];
  for (let offset = 0; offset < bytes.length; offset += pieceSize) {
    for (const event of decoder.push(bytes.subarray(offset, offset + pieceSize)))
      chunks.push(...transformer.push(event));
  }
  for (const event of decoder.end()) chunks.push(...transformer.push(event));
  chunks.push(...transformer.end());
  return { chunks, transformer };
}

describe('AnthropicChatStream', () => {
  it('turns a text stream into role, content, finish and usage chunks, whatever the byte boundaries', () => {
    for (const pieceSize of [1, 7, 64, TEXT_STREAM.length]) {
      const { chunks, transformer } = transform(TEXT_STREAM, pieceSize);
      // As an OpenAI client reads them (JSON): what rides for an Anthropic client is not part of it.
      const deltas = chunks.map((chunk) => chunk.choices[0]?.delta ?? 'usage');
      expect(JSON.parse(JSON.stringify(deltas))).toEqual([
        { role: 'assistant', content: '' },
        { content: 'Héllo' },
        { content: ' wörld 🙂' },
        {},
        'usage',
      ]);
      expect(chunks[3]!.choices[0]!.finish_reason).toBe('stop');
      expect(chunks[4]).toEqual({
        id: MESSAGE.id,
        object: 'chat.completion.chunk',
        created: context.created,
        model: 'claude-sonnet-4-5',
        choices: [],
        usage: {
          prompt_tokens: 35,
          completion_tokens: 15,
          total_tokens: 50,
          prompt_tokens_details: { cached_tokens: 10 },
        },
      });
      expect(transformer.usage()).toEqual({ prompt_tokens: 35, completion_tokens: 15, cached_tokens: 10 });
    }
  });

  it("gives the prompt's usage told in message_start with the role chunk, for an Anthropic client", () => {
    const { chunks } = transform(TEXT_STREAM, TEXT_STREAM.length);
    expect(anthropicFieldsOf(chunks[0]!.choices[0]!.delta)?.start_usage).toEqual({
      prompt_tokens: 35,
      completion_tokens: 1,
      cached_tokens: 10,
    });
  });

  it('turns a tool_use block into tool-call deltas with index, id, name and argument pieces', () => {
    const { chunks } = transform(TOOL_STREAM, 5);
    const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas).toEqual([
      {
        index: 0,
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        type: 'function',
        function: { name: 'get_weather', arguments: '' },
      },
      { index: 0, function: { arguments: '' } },
      { index: 0, function: { arguments: '{"location": "San Fra' } },
      { index: 0, function: { arguments: 'ncisco, CA"}' } },
    ]);
    const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason != null);
    expect(finish?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks[chunks.length - 1]!.usage).toMatchObject({ prompt_tokens: 472, completion_tokens: 89 });
  });

  it('keeps the usage seen so far when the stream is cut before message_stop', () => {
    const cut = TEXT_STREAM.slice(0, TEXT_STREAM.indexOf('event: message_delta'));
    const { chunks, transformer } = transform(cut, 11);
    expect(chunks.some((chunk) => chunk.usage !== undefined)).toBe(false);
    expect(transformer.usage()).toEqual({ prompt_tokens: 35, completion_tokens: 1, cached_tokens: 10 });
  });

  it('raises the error event Anthropic sends when it is overloaded mid-stream', () => {
    const stream = new AnthropicChatStream(context);
    const event = {
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    };
    expect(() => stream.push(event)).toThrow(UpstreamStreamError);
  });
});
