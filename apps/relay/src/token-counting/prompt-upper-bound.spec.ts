import { anthropicMessagesProtocol } from '../dialects/anthropic/messages.protocol';
import type { ChatClientProtocol, ChatRouteInput } from '../dialects/chat-client-protocol';
import { geminiGenerateProtocol } from '../dialects/gemini/generate.protocol';
import { openAiChatProtocol } from '../dialects/openai/chat.protocol';
import { IMAGE_TOKENS, LOW_DETAIL_IMAGE_TOKENS } from './image-tokens';
import { countPromptTokens } from './prompt-tokens';
import {
  IMAGE_TOKENS_BOUND,
  mediaTokensBeyondCount,
  promptTokensUpperBound,
  UNSIZED_PART_TOKENS_BOUND,
} from './prompt-upper-bound';

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

  it('adds each image its most tokens on any family, since an image URL is shorter than its tokens', () => {
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
    // Anthropic has no low detail: a "low" image costs it as much as any other.
    expect(bound).toBe(bodyBytes + 2 * IMAGE_TOKENS_BOUND);
    expect(bound).toBeGreaterThanOrEqual(counted);
    expect(IMAGE_TOKENS_BOUND).toBeGreaterThan(IMAGE_TOKENS + LOW_DETAIL_IMAGE_TOKENS);
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
      expect(bound).toBeLessThan(IMAGE_TOKENS_BOUND + 200);
    }
  });

  it('holds a PDF, by url or base64, or an OpenAI file part at its documented most, beyond its bytes', () => {
    const pdfBy = (source: object) =>
      boundAndCount(anthropicMessagesProtocol, {
        body: {
          model: 'm',
          max_tokens: 5,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'document', source },
                { type: 'text', text: 'sum up' },
              ],
            },
          ],
        },
      });
    const byUrl = pdfBy({ type: 'url', url: 'https://a.b/report.pdf' });
    const inline = pdfBy({ type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' });
    const file = boundAndCount(openAiChatProtocol, {
      body: {
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }],
      },
    });
    for (const { bound } of [byUrl, inline, file]) expect(bound).toBeGreaterThan(UNSIZED_PART_TOKENS_BOUND);
    expect(UNSIZED_PART_TOKENS_BOUND).toBe(460_000);
  });

  it("holds a text document by its bytes, and the images and PDFs of an Anthropic client's tool result", () => {
    const text = boundAndCount(anthropicMessagesProtocol, {
      body: {
        model: 'm',
        max_tokens: 5,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' } },
            ],
          },
        ],
      },
    });
    expect(text.bound).toBeLessThan(1_000);
    const toolResult = boundAndCount(anthropicMessagesProtocol, {
      body: {
        model: 'm',
        max_tokens: 5,
        messages: [
          { role: 'user', content: 'read it' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'fetch', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't1',
                content: [
                  { type: 'image', source: { type: 'url', url: 'https://a.b/c.png' } },
                  { type: 'document', source: { type: 'url', url: 'https://a.b/r.pdf' } },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(toolResult.bound).toBeGreaterThan(UNSIZED_PART_TOKENS_BOUND + IMAGE_TOKENS_BOUND);
  });
});

describe('mediaTokensBeyondCount', () => {
  it('adds to a count what it leaves out of the bound of images and PDFs', () => {
    const request = openAiChatProtocol.toChatRequest({
      body: {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this' },
              { type: 'image_url', image_url: { url: 'https://a.b/c.png', detail: 'low' } },
              { type: 'file', file: { file_id: 'file-abc' } },
            ],
          },
        ],
      },
    });
    expect(countPromptTokens(request) + mediaTokensBeyondCount(request)).toBeGreaterThanOrEqual(
      IMAGE_TOKENS_BOUND + UNSIZED_PART_TOKENS_BOUND,
    );
  });
});
