import { anthropicAdapter } from '../../providers/anthropic/anthropic.adapter';
import { anthropicTokenCounting } from '../../providers/anthropic/count-tokens';
import { toAnthropicMessagesRequest } from '../../providers/anthropic/chat-request';
import type { AnthropicMessagesRequest } from '../../providers/anthropic/types';
import { openAiAdapter } from '../../providers/openai/openai-style.adapter';
import type { ChannelTarget } from '../../providers/upstream-request';
import { refuseAnthropicOnlyContent, UntranslatableRequestError } from '../../canonical';
import { anthropicMessagesProtocol } from './messages.protocol';
import { fromAnthropicClientRequest } from './request';

// Documents (PDF support, citations), tool results holding more than text, and the anthropic-beta
// header, as Anthropic documents them, from an Anthropic client to an Anthropic channel and elsewhere.

const CACHE = { type: 'ephemeral' } as const;
const PDF = { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjcKJcfsj6IK' } as const;
const PDF_DOCUMENT = {
  type: 'document',
  source: PDF,
  title: 'Annual report',
  context: 'Filed in 2024',
  citations: { enabled: true },
  cache_control: CACHE,
} as const;
const URL_DOCUMENT = { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } } as const;
const TEXT_DOCUMENT = {
  type: 'document',
  source: { type: 'text', media_type: 'text/plain', data: 'The grass is green.' },
  title: 'Facts',
  citations: { enabled: true },
} as const;

const target: ChannelTarget = { baseUrl: 'https://upstream.example', apiKey: 'k', upstreamModel: 'up' };

function requestWith(content: unknown[]): AnthropicMessagesRequest {
  return {
    model: 'claude',
    max_tokens: 100,
    messages: [{ role: 'user', content }],
  } as unknown as AnthropicMessagesRequest;
}

function toAnthropic(request: AnthropicMessagesRequest): AnthropicMessagesRequest {
  return toAnthropicMessagesRequest(fromAnthropicClientRequest(request), 'up');
}

describe('document blocks from an Anthropic client', () => {
  const content = [PDF_DOCUMENT, URL_DOCUMENT, TEXT_DOCUMENT, { type: 'text', text: 'Summarise.' }];

  it('reach an Anthropic channel as they came: source, title, context, citations, cache_control', () => {
    expect(toAnthropic(requestWith(content)).messages[0]!.content).toEqual(content);
  });

  it("a PDF is refused for another family's channel, naming documents, rather than dropped", () => {
    const canonical = fromAnthropicClientRequest(requestWith([PDF_DOCUMENT, { type: 'text', text: 'Hi' }]));
    expect(() => refuseAnthropicOnlyContent(canonical)).toThrow(UntranslatableRequestError);
    expect(() => refuseAnthropicOnlyContent(canonical)).toThrow(/does not take documents/);
    const byUrl = fromAnthropicClientRequest(requestWith([URL_DOCUMENT]));
    expect(() => refuseAnthropicOnlyContent(byUrl)).toThrow(/does not take documents/);
  });

  it('a text document reaches another channel as text, with its title', () => {
    const canonical = fromAnthropicClientRequest(requestWith([TEXT_DOCUMENT, { type: 'text', text: 'Hi' }]));
    expect(() => refuseAnthropicOnlyContent(canonical)).not.toThrow();
    const body = JSON.parse(openAiAdapter.buildChatRequest(canonical, target).body as string) as {
      messages: unknown[];
    };
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Facts\n\nThe grass is green.' },
          { type: 'text', text: 'Hi' },
        ],
      },
    ]);
  });

  it('a content document of text blocks is text too', () => {
    const document = {
      type: 'document',
      source: {
        type: 'content',
        content: [
          { type: 'text', text: 'One.' },
          { type: 'text', text: 'Two.' },
        ],
      },
    };
    const canonical = fromAnthropicClientRequest(requestWith([document]));
    expect(() => refuseAnthropicOnlyContent(canonical)).not.toThrow();
    expect(JSON.parse(JSON.stringify(canonical.messages[0]!.content))).toEqual([
      { type: 'text', text: 'One.\nTwo.' },
    ]);
  });
});

describe('tool results from an Anthropic client', () => {
  const withTurns = (result: object): AnthropicMessagesRequest =>
    ({
      model: 'claude',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Look it up' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }],
        },
        { role: 'user', content: [result] },
      ],
    }) as unknown as AnthropicMessagesRequest;

  it.each([
    [
      'a cache breakpoint on an inner text block',
      [
        { type: 'text', text: 'first' },
        { type: 'text', text: 'second', cache_control: CACHE },
      ],
    ],
    ['an image', [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } }]],
    ['a document', [PDF_DOCUMENT]],
  ])('reach an Anthropic channel as they came when they hold %s', (_what, inner) => {
    const result = { type: 'tool_result', tool_use_id: 'toolu_1', content: inner };
    expect(toAnthropic(withTurns(result)).messages[2]!.content).toEqual([result]);
  });

  it('keep is_error for an Anthropic channel', () => {
    const result = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'not found', is_error: true };
    expect(toAnthropic(withTurns(result)).messages[2]!.content).toEqual([result]);
  });

  it('reach another channel as their text; a PDF inside one is refused there', () => {
    const result = {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [
        { type: 'text', text: 'first ' },
        { type: 'text', text: 'second', cache_control: CACHE },
      ],
    };
    const canonical = fromAnthropicClientRequest(withTurns(result));
    expect(JSON.parse(JSON.stringify(canonical.messages[2]))).toEqual({
      role: 'tool',
      tool_call_id: 'toolu_1',
      content: 'first second',
    });
    const withPdf = fromAnthropicClientRequest(
      withTurns({ type: 'tool_result', tool_use_id: 'toolu_1', content: [PDF_DOCUMENT] }),
    );
    expect(() => refuseAnthropicOnlyContent(withPdf)).toThrow(/does not take documents/);
  });

  it('of plain text blocks are sent flattened, as before', () => {
    const result = {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [{ type: 'text', text: '14 °C' }],
    };
    expect(toAnthropic(withTurns(result)).messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '14 °C' },
    ]);
  });
});

describe('the anthropic-beta header of an Anthropic client', () => {
  const BETA = 'interleaved-thinking-2025-05-14,context-1m-2025-08-07';
  const request = anthropicMessagesProtocol.toChatRequest({
    body: { model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] },
    headers: { 'anthropic-beta': BETA, 'anthropic-version': '2023-06-01' },
  });

  it('goes to an Anthropic channel, for chat and for counting', () => {
    expect(anthropicAdapter.buildChatRequest(request, target).headers['anthropic-beta']).toBe(BETA);
    expect(anthropicTokenCounting.request(request, target).headers['anthropic-beta']).toBe(BETA);
  });

  it('goes to no other channel, in its headers or its body', () => {
    const openAi = openAiAdapter.buildChatRequest(request, target);
    expect(Object.keys(openAi.headers).map((name) => name.toLowerCase())).not.toContain('anthropic-beta');
    expect(openAi.body).not.toMatch(/interleaved|context-1m/);
  });

  it('is not sent when the client sent none', () => {
    const plain = anthropicMessagesProtocol.toChatRequest({
      body: { model: 'claude', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] },
      headers: { 'anthropic-version': '2023-06-01' },
    });
    expect(anthropicAdapter.buildChatRequest(plain, target).headers).not.toHaveProperty('anthropic-beta');
  });
});
