import { anthropicFieldsOf, MalformedUpstreamResponseError } from '../../canonical';
import { fromAnthropicMessage } from './chat-response';

const context = { created: 1_700_000_000, model: 'claude-x' };

describe('fromAnthropicMessage', () => {
  it('converts a text answer with cache usage: prompt tokens include cache reads and writes', () => {
    const message = {
      id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Hi! My name is Claude.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 5,
        cache_read_input_tokens: 2000,
        output_tokens: 12,
      },
    };
    expect(fromAnthropicMessage(message, context)).toEqual({
      id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'claude-sonnet-4-5',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi! My name is Claude.' },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 2015,
        completion_tokens: 12,
        total_tokens: 2027,
        prompt_tokens_details: { cached_tokens: 2000, cache_write_tokens: 5 },
      },
    });
  });

  it('converts tool_use blocks into tool calls with JSON arguments and finish reason tool_calls, keeping the signed blocks for an Anthropic client', () => {
    const message = {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'The user wants weather.', signature: 'sig' },
        { type: 'text', text: 'Let me check.' },
        {
          type: 'tool_use',
          id: 'toolu_01A09q90qw90lq917835lq9',
          name: 'get_weather',
          input: { location: 'San Francisco, CA' },
        },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 472, output_tokens: 89 },
    };
    const choice = fromAnthropicMessage(message, context).choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(anthropicFieldsOf(choice.message)?.blocks).toEqual(message.content);
    expect(JSON.parse(JSON.stringify(choice.message))).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      reasoning_content: 'The user wants weather.',
      tool_calls: [
        {
          id: 'toolu_01A09q90qw90lq917835lq9',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA"}' },
        },
      ],
    });
  });

  it.each([
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'stop'],
  ])('maps stop_reason %s to finish_reason %s', (stopReason, finishReason) => {
    const message = {
      id: 'm',
      model: 'x',
      content: [],
      stop_reason: stopReason,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    expect(fromAnthropicMessage(message, context).choices[0]!.finish_reason).toBe(finishReason);
  });

  it('rejects a body without content', () => {
    expect(() => fromAnthropicMessage({ type: 'error' }, context)).toThrow(MalformedUpstreamResponseError);
  });
});
