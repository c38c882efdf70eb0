import {
  type ChatCompletionResponse,
  type FinishReason,
  MalformedUpstreamResponseError,
} from '../../canonical';
import { fromGeminiResponse } from '../../providers/gemini/chat-response';
import { chatResponseToGeminiClient } from './response';

function completion(message: ChatCompletionResponse['choices'][number]['message'], finish: FinishReason) {
  return {
    id: 'chatcmpl-42',
    object: 'chat.completion' as const,
    created: 1_700_000_000,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: {
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920 },
      completion_tokens_details: { reasoning_tokens: 100 },
    },
  } satisfies ChatCompletionResponse;
}

describe('chatResponseToGeminiClient', () => {
  it('answers with the documented GenerateContentResponse: parts, finishReason, usageMetadata, modelVersion, responseId', () => {
    const response = completion(
      { role: 'assistant', content: 'Paws: 8.', reasoning_content: 'Two dogs, four paws each.' },
      'stop',
    );
    expect(chatResponseToGeminiClient(response)).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ text: 'Two dogs, four paws each.', thought: true }, { text: 'Paws: 8.' }],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 2006,
        candidatesTokenCount: 200,
        thoughtsTokenCount: 100,
        cachedContentTokenCount: 1920,
        totalTokenCount: 2306,
      },
      modelVersion: 'gpt-4o-2024-08-06',
      responseId: 'chatcmpl-42',
    });
  });

  it('answers tool calls as functionCall parts with their ids and object arguments, finishing with STOP', () => {
    const response = completion(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'enable_lights', arguments: '' } },
          {
            id: 'call_b',
            type: 'function',
            function: { name: 'set_light_color', arguments: '{"rgb_hex":"ff0000"}' },
          },
        ],
      },
      'tool_calls',
    );
    const candidate = (
      chatResponseToGeminiClient(response)['candidates'] as Array<Record<string, unknown>>
    )[0];
    expect(candidate).toEqual({
      content: {
        role: 'model',
        parts: [
          { functionCall: { id: 'call_a', name: 'enable_lights', args: {} } },
          { functionCall: { id: 'call_b', name: 'set_light_color', args: { rgb_hex: 'ff0000' } } },
        ],
      },
      finishReason: 'STOP',
      index: 0,
    });
  });

  it.each([
    ['stop', 'STOP'],
    ['length', 'MAX_TOKENS'],
    ['tool_calls', 'STOP'],
    ['content_filter', 'SAFETY'],
  ] as const)('maps finish_reason %s to finishReason %s', (finish, expected) => {
    const answer = chatResponseToGeminiClient(completion({ role: 'assistant', content: 'x' }, finish));
    expect((answer['candidates'] as Array<{ finishReason: string }>)[0]!.finishReason).toBe(expected);
  });

  it('reports zero usage when the canonical answer has none', () => {
    const { usage: _usage, ...withoutUsage } = completion({ role: 'assistant', content: 'x' }, 'stop');
    expect(chatResponseToGeminiClient(withoutUsage)['usageMetadata']).toEqual({
      promptTokenCount: 0,
      candidatesTokenCount: 0,
      totalTokenCount: 0,
    });
  });

  it('blames the upstream (502) for tool arguments that are not JSON', () => {
    const response = completion(
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }],
      },
      'tool_calls',
    );
    expect(() => chatResponseToGeminiClient(response)).toThrow(MalformedUpstreamResponseError);
  });

  it('reads back to the same canonical answer through the upstream transform', () => {
    const response = completion(
      {
        role: 'assistant',
        content: 'Turning them on.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'enable_lights', arguments: '{}' } },
        ],
      },
      'tool_calls',
    );
    const back = fromGeminiResponse(chatResponseToGeminiClient(response), {
      created: response.created,
      model: 'x',
    });
    expect(back.choices).toEqual(response.choices);
    expect(back.usage).toEqual({
      prompt_tokens: 2006,
      completion_tokens: 300,
      total_tokens: 2306,
      prompt_tokens_details: { cached_tokens: 1920 },
    });
  });
});
