import type { ChatCompletionResponse } from '../../canonical';
import { toAnthropicClientResponse } from './response';

describe('toAnthropicClientResponse', () => {
  it('converts text, tool calls, finish reason and usage (cached tokens as cache reads)', () => {
    const response: ChatCompletionResponse = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4o-2024-08-06',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        prompt_tokens_details: { cached_tokens: 64 },
      },
    };
    expect(toAnthropicClientResponse(response, 'claude-alias')).toEqual({
      id: 'chatcmpl-1',
      type: 'message',
      role: 'assistant',
      model: 'claude-alias',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 36,
        output_tokens: 20,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 64,
      },
    });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
  ] as const)('maps finish_reason %s to stop_reason %s', (finish, stop) => {
    const response: ChatCompletionResponse = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: finish }],
    };
    expect(toAnthropicClientResponse(response, 'm').stop_reason).toBe(stop);
  });
});
