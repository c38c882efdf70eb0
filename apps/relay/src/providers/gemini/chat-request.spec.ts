import { type ChatCompletionRequest, UntranslatableRequestError } from '../../canonical';
import { toGeminiRequest } from './chat-request';

const weatherParameters = {
  type: 'object',
  properties: { location: { type: 'string' } },
  required: ['location'],
};

describe('toGeminiRequest', () => {
  it('moves system prompts to systemInstruction, maps roles and generation settings', () => {
    const request: ChatCompletionRequest = {
      model: 'gemini',
      messages: [
        { role: 'system', content: 'You are a cat.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Meow.' },
        { role: 'user', content: 'Again' },
      ],
      temperature: 0.7,
      top_p: 0.95,
      max_tokens: 100,
      stop: ['END'],
      response_format: { type: 'json_object' },
    };
    expect(toGeminiRequest(request)).toEqual({
      systemInstruction: { parts: [{ text: 'You are a cat.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hello' }] },
        { role: 'model', parts: [{ text: 'Meow.' }] },
        { role: 'user', parts: [{ text: 'Again' }] },
      ],
      generationConfig: {
        temperature: 0.7,
        topP: 0.95,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        responseMimeType: 'application/json',
      },
    });
  });

  it('asks n as candidateCount, and refuses n above 1 on a stream, which is read as one candidate', () => {
    const request = (n: number, stream: boolean): ChatCompletionRequest => ({
      model: 'gemini',
      messages: [{ role: 'user', content: 'Hello' }],
      n,
      stream,
    });
    expect(toGeminiRequest(request(2, false)).generationConfig).toEqual({ candidateCount: 2 });
    expect(toGeminiRequest(request(1, true)).generationConfig).toEqual({ candidateCount: 1 });
    expect(() => toGeminiRequest(request(2, true))).toThrow(UntranslatableRequestError);
  });

  it('sends base64 images as inlineData and URLs as fileData', () => {
    const request: ChatCompletionRequest = {
      model: 'gemini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png?size=2' } },
          ],
        },
      ],
    };
    expect(toGeminiRequest(request).contents[0]!.parts).toEqual([
      { text: 'Describe' },
      { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
      { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/a.png?size=2' } },
    ]);
  });

  it('converts tools, a forced tool choice, function calls and their results', () => {
    const request: ChatCompletionRequest = {
      model: 'gemini',
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather', parameters: weatherParameters },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Rome"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"celsius":15}' },
        { role: 'tool', tool_call_id: 'call_2', content: 'sunny' },
      ],
    };
    const result = toGeminiRequest(request);
    expect(result.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather', parametersJsonSchema: weatherParameters },
        ],
      },
    ]);
    expect(result.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    expect(result.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { location: 'Paris' } } },
          { functionCall: { name: 'get_weather', args: { location: 'Rome' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { celsius: 15 } } },
          { functionResponse: { name: 'get_weather', response: { content: 'sunny' } } },
        ],
      },
    ]);
  });

  it('refuses a tool result that answers no earlier call', () => {
    const request: ChatCompletionRequest = {
      model: 'gemini',
      messages: [{ role: 'tool', tool_call_id: 'call_x', content: 'orphan' }],
    };
    expect(() => toGeminiRequest(request)).toThrow(UntranslatableRequestError);
  });
});
