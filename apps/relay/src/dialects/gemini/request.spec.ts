import { UntranslatableRequestError } from '../../canonical';
import { toGeminiRequest } from '../../providers/gemini/chat-request';
import { geminiClientRequestToChat } from './request';

// Request bodies as Google's REST documentation shows them: camelCase in some samples, snake_case
// (which the API accepts too) in others.

const CHAT_WITH_SYSTEM_INSTRUCTION = {
  system_instruction: { parts: [{ text: 'You are a cat.' }, { text: 'Your name is Neko.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'Hello' }] },
    { role: 'model', parts: [{ text: 'Great to meet you. What would you like to know?' }] },
    { role: 'user', parts: [{ text: 'I have two dogs in my house. How many paws are in my house?' }] },
  ],
  generationConfig: {
    stopSequences: ['Title'],
    temperature: 1.0,
    maxOutputTokens: 800,
    topP: 0.8,
    topK: 10,
  },
  safetySettings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_ONLY_HIGH' }],
};

const LIGHTS_DECLARATIONS = [
  {
    name: 'enable_lights',
    description: 'Turn on the lighting system.',
  },
  {
    name: 'set_light_color',
    description: 'Set the light color. Lights must be enabled for this to work.',
    parameters: {
      type: 'OBJECT',
      properties: {
        rgb_hex: {
          type: 'STRING',
          description: 'The light color as a 6-digit hex string, e.g. ff0000 for red.',
        },
      },
      required: ['rgb_hex'],
    },
  },
  {
    name: 'stop_lights',
    description: 'Turn off the lighting system.',
  },
];

const FUNCTION_CALLING_TURNS = {
  contents: [
    { role: 'user', parts: [{ text: 'Turn on the lights and make them red.' }] },
    {
      role: 'model',
      parts: [
        { functionCall: { name: 'enable_lights', args: {} } },
        { functionCall: { name: 'set_light_color', args: { rgb_hex: 'ff0000' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'set_light_color', response: { rgb_hex: 'ff0000' } } },
        { functionResponse: { name: 'enable_lights', response: { result: 'ok' } } },
      ],
    },
  ],
  tools: [{ functionDeclarations: LIGHTS_DECLARATIONS }],
  tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['set_light_color'] } },
};

describe('geminiClientRequestToChat', () => {
  it('converts the system instruction, a multi-turn chat and its generation settings, leaving out topK and safety settings', () => {
    expect(geminiClientRequestToChat('gemini-2.5-flash', CHAT_WITH_SYSTEM_INSTRUCTION, false)).toEqual({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'You are a cat.\nYour name is Neko.' },
        { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
        { role: 'assistant', content: 'Great to meet you. What would you like to know?' },
        {
          role: 'user',
          content: [{ type: 'text', text: 'I have two dogs in my house. How many paws are in my house?' }],
        },
      ],
      stop: ['Title'],
      temperature: 1.0,
      max_tokens: 800,
      top_p: 0.8,
    });
  });

  it('asks a streaming upstream for its usage', () => {
    const request = geminiClientRequestToChat('m', { contents: [{ parts: [{ text: 'Hi' }] }] }, true);
    expect(request.stream).toBe(true);
    expect(request.stream_options).toEqual({ include_usage: true });
    expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('turns inline images into data URLs and file URIs into image URLs', () => {
    const body = {
      contents: [
        {
          parts: [
            { inline_data: { mime_type: 'image/jpeg', data: '/9j/4AAQSkZJRg==' } },
            {
              fileData: {
                mimeType: 'image/png',
                fileUri: 'https://generativelanguage.example/v1beta/files/abc-123',
              },
            },
            { text: 'Caption these images.' },
          ],
        },
      ],
    };
    expect(geminiClientRequestToChat('m', body, false).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQSkZJRg==' } },
          {
            type: 'image_url',
            image_url: { url: 'https://generativelanguage.example/v1beta/files/abc-123' },
          },
          { type: 'text', text: 'Caption these images.' },
        ],
      },
    ]);
  });

  it('converts declarations (Gemini schema to JSON Schema), calls and responses paired by name with stable ids', () => {
    const request = geminiClientRequestToChat('m', FUNCTION_CALLING_TURNS, false);
    expect(request.tools).toEqual([
      { type: 'function', function: { name: 'enable_lights', description: 'Turn on the lighting system.' } },
      {
        type: 'function',
        function: {
          name: 'set_light_color',
          description: 'Set the light color. Lights must be enabled for this to work.',
          parameters: {
            type: 'object',
            properties: {
              rgb_hex: {
                type: 'string',
                description: 'The light color as a 6-digit hex string, e.g. ff0000 for red.',
              },
            },
            required: ['rgb_hex'],
          },
        },
      },
      { type: 'function', function: { name: 'stop_lights', description: 'Turn off the lighting system.' } },
    ]);
    expect(request.tool_choice).toEqual({ type: 'function', function: { name: 'set_light_color' } });
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_gemini_0', type: 'function', function: { name: 'enable_lights', arguments: '{}' } },
          {
            id: 'call_gemini_1',
            type: 'function',
            function: { name: 'set_light_color', arguments: '{"rgb_hex":"ff0000"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_gemini_1', content: '{"rgb_hex":"ff0000"}' },
      { role: 'tool', tool_call_id: 'call_gemini_0', content: '{"result":"ok"}' },
    ]);
    expect(geminiClientRequestToChat('m', FUNCTION_CALLING_TURNS, false)).toEqual(request);
  });

  it('pairs a response with the call of the same id when the model gave ids', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Paris' } } },
            { functionCall: { id: 'fc-2', name: 'get_weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'function',
          parts: [
            { functionResponse: { id: 'fc-2', name: 'get_weather', response: { celsius: 20 } } },
            { functionResponse: { id: 'fc-1', name: 'get_weather', response: { celsius: 15 } } },
          ],
        },
      ],
    };
    const messages = geminiClientRequestToChat('m', body, false).messages;
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'fc-2', content: '{"celsius":20}' },
      { role: 'tool', tool_call_id: 'fc-1', content: '{"celsius":15}' },
    ]);
  });

  it('reads snake_case part and declaration fields without renaming the names inside arguments', () => {
    const body = {
      contents: [
        {
          role: 'user',
          parts: [{ file_data: { mime_type: 'image/webp', file_uri: 'gs://bucket/cat.webp' } }],
        },
        { role: 'model', parts: [{ function_call: { name: 'tag', args: { tag_name: 'cat' } } }] },
        { role: 'user', parts: [{ function_response: { name: 'tag', response: { tag_id: 7 } } }] },
      ],
      tools: [{ function_declarations: [{ name: 'tag', parameters_json_schema: { type: 'object' } }] }],
    };
    const request = geminiClientRequestToChat('m', body, false);
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'gs://bucket/cat.webp' } }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_gemini_0',
            type: 'function',
            function: { name: 'tag', arguments: '{"tag_name":"cat"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_gemini_0', content: '{"tag_id":7}' },
    ]);
    expect(request.tools).toEqual([
      { type: 'function', function: { name: 'tag', parameters: { type: 'object' } } },
    ]);
  });

  it.each([
    [{ mode: 'AUTO' }, 'auto', 3],
    [{ mode: 'NONE' }, 'none', 3],
    [{ mode: 'ANY' }, 'required', 3],
    [{ mode: 'ANY', allowedFunctionNames: ['enable_lights', 'stop_lights'] }, 'required', 2],
  ])('maps functionCallingConfig %j to tool_choice %j with %i tools', (config, choice, toolCount) => {
    const request = geminiClientRequestToChat(
      'm',
      {
        contents: [{ parts: [{ text: 'Lights!' }] }],
        tools: [{ functionDeclarations: LIGHTS_DECLARATIONS }],
        toolConfig: { functionCallingConfig: config },
      },
      false,
    );
    expect(request.tool_choice).toEqual(choice);
    expect(request.tools).toHaveLength(toolCount);
  });

  it('maps responseMimeType application/json to a JSON object answer', () => {
    const request = geminiClientRequestToChat(
      'm',
      {
        contents: [{ parts: [{ text: 'List cookies' }] }],
        generationConfig: { responseMimeType: 'application/json' },
      },
      false,
    );
    expect(request.response_format).toEqual({ type: 'json_object' });
  });

  it('maps a responseSchema (OpenAPI subset) to a JSON schema answer', () => {
    const body = {
      contents: [{ parts: [{ text: 'List a few popular cookie recipes.' }] }],
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: {
          type: 'ARRAY',
          maxItems: '5',
          items: {
            type: 'OBJECT',
            properties: {
              recipeName: { type: 'STRING' },
              ingredients: { type: 'ARRAY', items: { type: 'STRING' } },
              rating: { type: 'INTEGER', nullable: true },
            },
            propertyOrdering: ['recipeName', 'ingredients', 'rating'],
          },
        },
      },
    };
    expect(geminiClientRequestToChat('m', body, false).response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'response',
        schema: {
          type: 'array',
          maxItems: 5,
          items: {
            type: 'object',
            properties: {
              recipeName: { type: 'string' },
              ingredients: { type: 'array', items: { type: 'string' } },
              rating: { type: ['integer', 'null'] },
            },
          },
        },
      },
    });
  });

  it('passes a responseJsonSchema and a parametersJsonSchema through unchanged', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false };
    const request = geminiClientRequestToChat(
      'm',
      {
        contents: [{ parts: [{ text: 'x' }] }],
        tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: schema }] }],
        generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
      },
      false,
    );
    expect(request.tools?.[0]?.function.parameters).toEqual(schema);
    expect(request.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema },
    });
  });

  it('round-trips to the same Gemini conversation through the upstream transform', () => {
    const back = toGeminiRequest(geminiClientRequestToChat('m', FUNCTION_CALLING_TURNS, false));
    expect(back.contents).toEqual(FUNCTION_CALLING_TURNS.contents);
    expect(back.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['set_light_color'] },
    });
  });

  it.each([
    ['a body that is not an object', [], /JSON object/],
    ['no contents', { contents: [] }, /contents must hold at least one turn/],
    ['an unknown role', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, /contents\.0\.role/],
    ['a part without data', { contents: [{ parts: [{}] }] }, /empty or unknown part/],
    [
      'code execution parts',
      { contents: [{ parts: [{ executableCode: { code: 'print(1)' } }] }] },
      /executableCode/,
    ],
    [
      'a non-image inline file',
      { contents: [{ parts: [{ inlineData: { mimeType: 'application/pdf', data: 'JVBER' } }] }] },
      /application\/pdf is not supported/,
    ],
    [
      'a response to no call',
      { contents: [{ parts: [{ functionResponse: { name: 'get_weather', response: {} } }] }] },
      /"get_weather" answers no earlier functionCall/,
    ],
    [
      'a built-in tool',
      { contents: [{ parts: [{ text: 'x' }] }], tools: [{ googleSearch: {} }] },
      /googleSearch tool is not supported/,
    ],
    [
      'an undeclared allowed function',
      {
        contents: [{ parts: [{ text: 'x' }] }],
        tools: [{ functionDeclarations: [{ name: 'f' }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['g'] } },
      },
      /"g", which no functionDeclaration declares/,
    ],
    [
      'several candidates',
      { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { candidateCount: 2 } },
      /candidateCount/,
    ],
    [
      'an enum answer',
      { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { responseMimeType: 'text/x.enum' } },
      /text\/x\.enum is not supported/,
    ],
    [
      'a cached content reference',
      { contents: [{ parts: [{ text: 'x' }] }], cachedContent: 'cachedContents/abc' },
      /cachedContent/,
    ],
  ])('refuses %s with a 400 naming the problem', (_case, body, message) => {
    const convert = () => geminiClientRequestToChat('m', body, false);
    expect(convert).toThrow(UntranslatableRequestError);
    expect(convert).toThrow(message);
  });
});
