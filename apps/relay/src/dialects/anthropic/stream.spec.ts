import { withAnthropicFields, type ChatCompletionChunk } from '../../canonical';
import { AnthropicClientStream } from './stream';

function chunk(
  delta: ChatCompletionChunk['choices'][number]['delta'],
  finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null,
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-9',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

const CANONICAL: ChatCompletionChunk[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Let me ' }),
  chunk({ content: 'check.' }),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_A', type: 'function', function: { name: 'get_weather', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
  chunk({}, 'tool_calls'),
  {
    id: 'chatcmpl-9',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt',
    choices: [],
    usage: {
      prompt_tokens: 50,
      completion_tokens: 12,
      total_tokens: 62,
      prompt_tokens_details: { cached_tokens: 0 },
    },
  },
];

describe('AnthropicClientStream', () => {
  it('emits the documented event sequence with text and tool_use blocks, stop reason and usage', () => {
    const stream = new AnthropicClientStream('claude-alias');
    const events = [...CANONICAL.flatMap((c) => stream.push(c)), ...stream.end()];
    const decoded = events.map((event) => ({ event: event.event, ...JSON.parse(event.data) }));
    expect(decoded.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(decoded.every((event) => event.type === event.event)).toBe(true);
    expect(decoded[0].message).toMatchObject({
      id: 'chatcmpl-9',
      model: 'claude-alias',
      role: 'assistant',
      content: [],
    });
    expect(decoded[1]).toMatchObject({ index: 0, content_block: { type: 'text', text: '' } });
    expect(decoded[2].delta).toEqual({ type: 'text_delta', text: 'Let me ' });
    expect(decoded[5]).toMatchObject({
      index: 1,
      content_block: { type: 'tool_use', id: 'call_A', name: 'get_weather', input: {} },
    });
    expect(
      decoded
        .slice(6, 8)
        .map((event) => event.delta.partial_json)
        .join(''),
    ).toBe('{"city":"Oslo"}');
    expect(decoded[9]).toMatchObject({
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 50, output_tokens: 12 },
    });
  });

  it('ends an empty answer with end_turn and zero usage', () => {
    const stream = new AnthropicClientStream('m');
    const events = [...stream.push(chunk({ role: 'assistant' }, 'stop')), ...stream.end()];
    expect(events.map((event) => event.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
    expect(JSON.parse(events[1]!.data).delta.stop_reason).toBe('end_turn');
  });
});

describe("AnthropicClientStream's message_start", () => {
  const messageStartUsage = (first: ChatCompletionChunk): unknown => {
    const [event] = new AnthropicClientStream('claude').push(first);
    return (JSON.parse(event!.data) as { message: { usage: unknown } }).message.usage;
  };

  it('tells the prompt tokens an Anthropic upstream told in its own message_start', () => {
    const first = chunk(
      withAnthropicFields(
        { role: 'assistant', content: '' },
        { start_usage: { prompt_tokens: 2435, completion_tokens: 1, cached_tokens: 2400 } },
      ),
    );
    expect(messageStartUsage(first)).toEqual({
      input_tokens: 35,
      output_tokens: 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 2400,
    });
  });

  it('tells zero input tokens for an upstream that tells usage only at the end', () => {
    expect(messageStartUsage(chunk({ role: 'assistant', content: '' }))).toMatchObject({
      input_tokens: 0,
      output_tokens: 0,
    });
  });
});
