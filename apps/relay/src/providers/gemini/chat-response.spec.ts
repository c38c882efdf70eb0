import { fromGeminiResponse } from './chat-response';

const context = { created: 1_700_000_000, model: 'gemini-2.5-flash' };

describe('fromGeminiResponse', () => {
  it('converts text and usage with cached and thinking tokens', () => {
    const body = {
      candidates: [
        {
          content: {
            parts: [{ text: 'Thinking…', thought: true }, { text: 'Once upon a time' }],
            role: 'model',
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 1200,
        candidatesTokenCount: 40,
        thoughtsTokenCount: 10,
        cachedContentTokenCount: 1024,
        totalTokenCount: 1250,
      },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-1',
    };
    expect(fromGeminiResponse(body, context)).toEqual({
      id: 'resp-1',
      object: 'chat.completion',
      created: context.created,
      model: 'gemini-2.5-flash',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Once upon a time', reasoning_content: 'Thinking…' },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 1200,
        completion_tokens: 50,
        total_tokens: 1250,
        prompt_tokens_details: { cached_tokens: 1024 },
      },
    });
  });

  it('converts function calls into tool calls with stable ids and finish reason tool_calls', () => {
    const body = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'get_weather', args: { location: 'Paris' } } }],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 8, totalTokenCount: 38 },
      responseId: 'r9',
    };
    const choice = fromGeminiResponse(body, context).choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      {
        id: 'call_r9_0',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
      },
    ]);
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['OTHER', 'stop'],
  ])('maps finishReason %s to %s', (reason, expected) => {
    const body = { candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: reason }] };
    expect(fromGeminiResponse(body, context).choices[0]!.finish_reason).toBe(expected);
  });

  it('answers a blocked prompt (no candidates) as content_filter, naming the requested model', () => {
    const result = fromGeminiResponse(
      { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 7 } },
      context,
    );
    expect(result.model).toBe('gemini-2.5-flash');
    expect(result.choices[0]!.finish_reason).toBe('content_filter');
    expect(result.usage?.prompt_tokens).toBe(7);
  });

  it('answers every candidate as a choice, as OpenAI answers n', () => {
    const body = {
      candidates: [
        { content: { parts: [{ text: 'One' }] }, finishReason: 'STOP', index: 0 },
        { content: { parts: [{ text: 'Two' }] }, finishReason: 'MAX_TOKENS', index: 1 },
      ],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 9, totalTokenCount: 12 },
    };
    expect(fromGeminiResponse(body, context).choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'One' }, finish_reason: 'stop' },
      { index: 1, message: { role: 'assistant', content: 'Two' }, finish_reason: 'length' },
    ]);
  });
});
