import {
  type ChatCompletionRequest,
  UntranslatableRequestError,
  withFittedAnswerLimit,
} from '../../canonical';
import { DEFAULT_ANTHROPIC_MAX_TOKENS, toAnthropicMessagesRequest } from './chat-request';

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Get the current weather in a given location',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};

describe('toAnthropicMessagesRequest', () => {
  it('extracts system prompts, maps the model and defaults max_tokens', () => {
    const request: ChatCompletionRequest = {
      model: 'claude',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0.5,
      top_p: 0.9,
      stop: 'END',
      user: 'user-42',
    };
    expect(toAnthropicMessagesRequest(request, 'claude-sonnet-4-5')).toEqual({
      model: 'claude-sonnet-4-5',
      system: 'You are terse.\n\nAnswer in French.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
      temperature: 0.5,
      top_p: 0.9,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-42' },
    });
  });

  it('converts multi-turn conversations and image parts (base64 and URL)', () => {
    const request: ChatCompletionRequest = {
      model: 'claude',
      max_completion_tokens: 256,
      stream: true,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello! How can I help?' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these images?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    };
    const result = toAnthropicMessagesRequest(request, 'claude-x');
    expect(result.max_tokens).toBe(256);
    expect(result.stream).toBe(true);
    expect(result.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello! How can I help?' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these images?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
  });

  it('converts tools, tool_choice, assistant tool calls and tool results into alternating turns', () => {
    const request: ChatCompletionRequest = {
      model: 'claude',
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'toolu_01',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
            {
              id: 'toolu_02',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Rome"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01', content: '15 degrees' },
        { role: 'tool', tool_call_id: 'toolu_02', content: [{ type: 'text', text: '22 degrees' }] },
        { role: 'user', content: 'Thanks, which is warmer?' },
      ],
    };
    const result = toAnthropicMessagesRequest(request, 'claude-x');
    expect(result.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Get the current weather in a given location',
        input_schema: weatherTool.function.parameters,
      },
    ]);
    expect(result.tool_choice).toEqual({
      type: 'tool',
      name: 'get_weather',
      disable_parallel_tool_use: true,
    });
    expect(result.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { location: 'Paris' } },
          { type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { location: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01', content: '15 degrees' },
          { type: 'tool_result', tool_use_id: 'toolu_02', content: '22 degrees' },
          { type: 'text', text: 'Thanks, which is warmer?' },
        ],
      },
    ]);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
  ] as const)('maps tool_choice %s', (choice, expected) => {
    const request: ChatCompletionRequest = {
      model: 'c',
      tools: [weatherTool],
      tool_choice: choice,
      messages: [{ role: 'user', content: 'x' }],
    };
    expect(toAnthropicMessagesRequest(request, 'c').tool_choice).toEqual(expected);
  });

  it('refuses tool call arguments that are not a JSON object', () => {
    const request: ChatCompletionRequest = {
      model: 'c',
      messages: [
        {
          role: 'assistant',
          tool_calls: [
            { id: 't', type: 'function', function: { name: 'get_weather', arguments: '{broken' } },
          ],
        },
      ],
    };
    expect(() => toAnthropicMessagesRequest(request, 'c')).toThrow(UntranslatableRequestError);
  });

  it('refuses n above 1, which Messages cannot answer, and takes n = 1', () => {
    const request = (n: number): ChatCompletionRequest => ({
      model: 'c',
      messages: [{ role: 'user', content: 'Hello' }],
      n,
    });
    expect(() => toAnthropicMessagesRequest(request(2), 'c')).toThrow(
      new UntranslatableRequestError(
        'n = 2 is not supported by this model: it answers with one choice per request',
      ),
    );
    expect(toAnthropicMessagesRequest(request(1), 'c')).not.toHaveProperty('n');
  });

  it('sends a json_schema response_format as output_config.format, and leaves json_object out', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const base: ChatCompletionRequest = {
      model: 'claude',
      messages: [{ role: 'user', content: 'Forecast' }],
    };
    expect(
      toAnthropicMessagesRequest(
        {
          ...base,
          response_format: { type: 'json_schema', json_schema: { name: 'f', strict: true, schema } },
        },
        'c',
      ).output_config,
    ).toEqual({ format: { type: 'json_schema', schema } });
    expect(
      toAnthropicMessagesRequest({ ...base, response_format: { type: 'json_object' } }, 'c'),
    ).not.toHaveProperty('output_config');
  });
});

describe("an OpenAI client's reasoning_effort on an Anthropic channel", () => {
  const question: ChatCompletionRequest = { model: 'gpt', messages: [{ role: 'user', content: 'Why?' }] };

  it.each([
    ['low', 1024],
    ['medium', 2048],
    ['high', 4096],
  ])(
    'asks %s as thinking with a budget of %i tokens, above the answer limit the client set',
    (effort, budget) => {
      const upstream = toAnthropicMessagesRequest(
        { ...question, reasoning_effort: effort, max_completion_tokens: 8000 },
        'claude',
      );
      expect(upstream.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
      expect(upstream.max_tokens).toBe(8000);
    },
  );

  it('adds the budget to the default answer limit when the client set none', () => {
    const upstream = toAnthropicMessagesRequest({ ...question, reasoning_effort: 'medium' }, 'claude');
    expect(upstream.max_tokens).toBe(2048 + DEFAULT_ANTHROPIC_MAX_TOKENS);
  });

  it('refuses an answer limit at or below the budget, naming reasoning_effort', () => {
    expect(() =>
      toAnthropicMessagesRequest({ ...question, reasoning_effort: 'high', max_tokens: 4096 }, 'claude'),
    ).toThrow(/reasoning_effort "high".*max_tokens/);
  });

  it.each([
    ['high', 1280, 1024],
    ['high', 3000, 1500],
    ['medium', 2000, 1024],
    ['low', 1100, 1024],
    ['medium', 8000, 2048],
  ])(
    'fits %s thinking into an answer limit of %i the relay fitted to the balance (budget %i)',
    (effort, fitted, budget) => {
      const request = withFittedAnswerLimit({ ...question, reasoning_effort: effort, max_tokens: fitted });
      const upstream = toAnthropicMessagesRequest(request, 'claude');
      expect(upstream.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
      expect(upstream.max_tokens).toBe(fitted);
    },
  );

  it('asks no thinking for none, and none when the history continues a tool call', () => {
    expect(toAnthropicMessagesRequest({ ...question, reasoning_effort: 'none' }, 'c')).not.toHaveProperty(
      'thinking',
    );
    const toolTurn: ChatCompletionRequest = {
      model: 'gpt',
      reasoning_effort: 'high',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: '14 °C' },
      ],
    };
    expect(toAnthropicMessagesRequest(toolTurn, 'c')).not.toHaveProperty('thinking');
  });
});
