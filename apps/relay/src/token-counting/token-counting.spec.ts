import type { ChatCompletionRequest, ChatMessage, FunctionTool } from '../canonical';
import { countPromptTokens, countTextTokens, IMAGE_TOKENS, LOW_DETAIL_IMAGE_TOKENS } from './';

const PER_MESSAGE = 3;
const REPLY_PRIMING = 3;

function request(messages: ChatMessage[], extra: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest {
  return { model: 'gpt-4o', messages, ...extra };
}

const WEATHER_TOOL: FunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather by city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'The city' } },
      required: ['city'],
    },
  },
};

describe('countTextTokens', () => {
  it('counts o200k_base tokens', () => {
    expect(countTextTokens('hello world')).toBe(2);
    expect(countTextTokens('')).toBe(0);
  });

  it('counts special-token strings in user text as plain text instead of refusing them', () => {
    expect(countTextTokens('<|endoftext|>')).toBeGreaterThan(1);
  });
});

describe('countPromptTokens', () => {
  it('adds 3 per message, the role and content, and 3 to prime the reply', () => {
    expect(countPromptTokens(request([{ role: 'user', content: 'hello world' }]))).toBe(
      PER_MESSAGE + countTextTokens('user') + 2 + REPLY_PRIMING,
    );
    expect(
      countPromptTokens(
        request([
          { role: 'system', content: 'hello world' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'hello' },
              { type: 'text', text: ' world' },
            ],
            name: 'ann',
          },
        ]),
      ),
    ).toBe(2 * PER_MESSAGE + 2 * 1 + 2 * 2 + countTextTokens('ann') + 1 + REPLY_PRIMING);
  });

  it('counts each image at the documented estimate, low detail at 85', () => {
    const text = countPromptTokens(
      request([{ role: 'user', content: [{ type: 'text', text: 'Describe' }] }]),
    );
    const withImages = countPromptTokens(
      request([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
          ],
        },
      ]),
    );
    expect(withImages - text).toBe(IMAGE_TOKENS + LOW_DETAIL_IMAGE_TOKENS);
  });

  it('counts tool calls (name, arguments and their overhead) and tool results', () => {
    const calls: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
      ],
    };
    const callTokens = (args: string) =>
      PER_MESSAGE + countTextTokens('assistant') + countTextTokens('get_weather') + countTextTokens(args) + 3;
    const result: ChatMessage = { role: 'tool', tool_call_id: 'call_1', content: '15 degrees' };
    expect(countPromptTokens(request([calls, result]))).toBe(
      callTokens('{"city":"Paris"}') +
        callTokens('{"city":"Rome"}') +
        PER_MESSAGE +
        countTextTokens('tool') +
        countTextTokens('15 degrees') +
        REPLY_PRIMING,
    );
  });

  it('counts tool definitions in the form the model reads them', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const rendered = [
      'namespace functions {',
      '',
      '// Weather by city',
      'type get_weather = (_: {',
      '// The city',
      'city: string,',
      '}) => any;',
      '',
      '} // namespace functions',
    ].join('\n');
    const definitionOverhead = 9;
    expect(countPromptTokens(request(messages, { tools: [WEATHER_TOOL] }))).toBe(
      countPromptTokens(request(messages)) + countTextTokens(rendered) + definitionOverhead,
    );
  });

  it('adds the documented overhead of a forced or refused tool choice', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const auto = countPromptTokens(request(messages, { tools: [WEATHER_TOOL], tool_choice: 'auto' }));
    expect(countPromptTokens(request(messages, { tools: [WEATHER_TOOL], tool_choice: 'none' }))).toBe(
      auto + 1,
    );
    expect(
      countPromptTokens(
        request(messages, {
          tools: [WEATHER_TOOL],
          tool_choice: { type: 'function', function: { name: 'get_weather' } },
        }),
      ),
    ).toBe(auto + countTextTokens('get_weather') + 4);
  });

  it('still counts a tool whose schema the renderer cannot walk, as JSON', () => {
    const odd: FunctionTool = {
      type: 'function',
      function: { name: 'odd', parameters: { type: 'object', properties: { a: null } } },
    };
    const messages: ChatMessage[] = [{ role: 'user', content: 'x' }];
    expect(countPromptTokens(request(messages, { tools: [odd] }))).toBe(
      countPromptTokens(request(messages)) + countTextTokens(JSON.stringify([odd])),
    );
  });
});
