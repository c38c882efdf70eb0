import { anthropicMessagesProtocol } from '../dialects/anthropic/messages.protocol';
import type { ChatClientProtocol, ChatRouteInput } from '../dialects/chat-client-protocol';
import { geminiGenerateProtocol } from '../dialects/gemini/generate.protocol';
import { openAiChatProtocol } from '../dialects/openai/chat.protocol';
import { IMAGE_TOKENS, LOW_DETAIL_IMAGE_TOKENS } from './image-tokens';
import { countPromptTokens } from './prompt-tokens';
import { promptTokensUpperBound } from './prompt-upper-bound';

/** Texts where tokens per byte run high: short words, digits, CJK, emoji, special-token strings. */
const DENSE_TEXTS = [
  'a b c d e f g h i j k l m n o p q r s t u v w x y z',
  '1 22 333 4444 55555 0.5 -7 1e9',
  '今天天气很好，我们去公园散步吧。東京は晴れです。',
  '😀🎉👍🏽 🇷🇺 ✓ → ∑',
  '<|endoftext|><|im_start|>',
  '{"a":[1,2,3],"b":{"c":null}}',
  'x',
  '',
];
const TOOL = {
  type: 'function',
  function: {
    name: 'f',
    parameters: { type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'] } } },
  },
};
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The bound as relay computes it from the body a client sends, and the prompt as counted. */
function boundAndCount(protocol: ChatClientProtocol, input: ChatRouteInput) {
  const request = protocol.toChatRequest(input);
  const bodyBytes = Buffer.byteLength(JSON.stringify(input.body));
  return { bound: promptTokensUpperBound(bodyBytes, request), counted: countPromptTokens(request) };
}

describe('promptTokensUpperBound', () => {
  it.each(DENSE_TEXTS)('is at least the counted prompt of an OpenAI body with text %j', (text) => {
    const body = {
      model: 'm',
      messages: [
        { role: 'system', content: text },
        { role: 'user', content: text, name: 'n' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c', content: text },
        { role: 'user', content: [{ type: 'text', text }] },
      ],
      tools: [TOOL],
      tool_choice: { type: 'function', function: { name: 'f' } },
    };
    const { bound, counted } = boundAndCount(openAiChatProtocol, { body });
    expect(bound).toBeGreaterThanOrEqual(counted);
  });

  it.each(DENSE_TEXTS)('is at least the counted prompt of Anthropic and Gemini bodies with %j', (text) => {
    const anthropic = boundAndCount(anthropicMessagesProtocol, {
      body: {
        model: 'm',
        max_tokens: 5,
        system: text,
        messages: [{ role: 'user', content: [{ type: 'text', text: text || '.' }] }],
        tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
      },
    });
    expect(anthropic.bound).toBeGreaterThanOrEqual(anthropic.counted);

    const gemini = boundAndCount(geminiGenerateProtocol, {
      model: 'm',
      stream: false,
      body: {
        systemInstruction: { parts: [{ text }] },
        contents: [{ parts: [{ text: text || '.' }] }],
        tools: [{ functionDeclarations: [{ name: 'f' }] }],
      },
    });
    expect(gemini.bound).toBeGreaterThanOrEqual(gemini.counted);
  });

  it('adds each image estimate, since an image URL is shorter than its tokens', () => {
    const body = {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'https://a.b/c.png' } },
            { type: 'image_url', image_url: { url: 'https://a.b/d.png', detail: 'low' } },
          ],
        },
      ],
    };
    const bodyBytes = Buffer.byteLength(JSON.stringify(body));
    const { bound, counted } = boundAndCount(openAiChatProtocol, { body });
    expect(bound).toBe(bodyBytes + IMAGE_TOKENS + LOW_DETAIL_IMAGE_TOKENS);
    expect(bound).toBeGreaterThanOrEqual(counted);
  });

  it('does not count an inline image payload as text, in any dialect', () => {
    const openAi = boundAndCount(openAiChatProtocol, {
      body: {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }],
          },
        ],
      },
    });
    const anthropic = boundAndCount(anthropicMessagesProtocol, {
      body: {
        model: 'm',
        max_tokens: 5,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
            ],
          },
        ],
      },
    });
    const gemini = boundAndCount(geminiGenerateProtocol, {
      model: 'm',
      stream: false,
      body: { contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }] }] },
    });
    for (const { bound, counted } of [openAi, anthropic, gemini]) {
      expect(bound).toBeGreaterThanOrEqual(counted);
      expect(bound).toBeLessThan(IMAGE_TOKENS + 200);
    }
  });
});
