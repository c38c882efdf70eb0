import { toAnthropicMessagesRequest } from '../../providers/anthropic/chat-request';
import { fromAnthropicClientRequest } from './request';
import type { AnthropicMessagesRequest } from '../../providers/anthropic/types';

const CLIENT_REQUEST: AnthropicMessagesRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'You are a weather bot.' }],
  stop_sequences: ['###'],
  temperature: 0.2,
  metadata: { user_id: 'u-1' },
  tools: [
    {
      name: 'get_weather',
      description: 'Weather by city',
      input_schema: { type: 'object', properties: { location: { type: 'string' } } },
    },
  ],
  tool_choice: { type: 'any', disable_parallel_tool_use: true },
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture, and the weather in Paris?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'A cat. Checking the weather.' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { location: 'Paris' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: '15 degrees' }] },
        { type: 'text', text: 'Thanks!' },
      ],
    },
  ],
};

describe('fromAnthropicClientRequest', () => {
  it('converts an Anthropic request into the canonical chat request', () => {
    expect(fromAnthropicClientRequest({ ...CLIENT_REQUEST, stream: true })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      stop: ['###'],
      user: 'u-1',
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather by city',
            parameters: { type: 'object', properties: { location: { type: 'string' } } },
          },
        },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
      messages: [
        { role: 'system', content: 'You are a weather bot.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture, and the weather in Paris?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: 'A cat. Checking the weather.',
          tool_calls: [
            {
              id: 'toolu_01',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01', content: '15 degrees' },
        { role: 'user', content: [{ type: 'text', text: 'Thanks!' }] },
      ],
    });
  });

  it('round-trips back to the same Anthropic conversation through the upstream transform', () => {
    const back = toAnthropicMessagesRequest(fromAnthropicClientRequest(CLIENT_REQUEST), CLIENT_REQUEST.model);
    expect(back.system).toBe('You are a weather bot.');
    expect(back.tool_choice).toEqual(CLIENT_REQUEST.tool_choice);
    expect(back.messages[0]).toEqual(CLIENT_REQUEST.messages[0]);
    expect(back.messages[1]).toEqual(CLIENT_REQUEST.messages[1]);
    expect(back.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01', content: '15 degrees' },
      { type: 'text', text: 'Thanks!' },
    ]);
  });

  it('turns output_config.format (and the beta output_format) into a json_schema response_format', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const base: AnthropicMessagesRequest = {
      model: 'claude',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Forecast' }],
    };
    const expected = { type: 'json_schema', json_schema: { name: 'response', schema } };
    expect(
      fromAnthropicClientRequest({ ...base, output_config: { format: { type: 'json_schema', schema } } })
        .response_format,
    ).toEqual(expected);
    expect(
      fromAnthropicClientRequest({ ...base, output_format: { type: 'json_schema', schema } }).response_format,
    ).toEqual(expected);
    expect(fromAnthropicClientRequest({ ...base, output_config: { effort: 'low' } })).not.toHaveProperty(
      'response_format',
    );
  });
});
