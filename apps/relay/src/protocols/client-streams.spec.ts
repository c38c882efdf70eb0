import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../errors/relay-error';
import type { ChatCompletionChunk } from '../canonical';
import { geminiGenerateProtocol } from './gemini-generate.protocol';
import { openAiChatProtocol } from './openai-chat.protocol';

const chunk = (content: string | undefined, usage?: ChatCompletionChunk['usage']): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: content === undefined ? [] : [{ index: 0, delta: { content }, finish_reason: null }],
  ...(usage === undefined ? {} : { usage }),
});
const USAGE = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };

describe('OpenAI client stream', () => {
  it('drops the forced usage chunk and usage fields for a client that did not ask', () => {
    const out = openAiChatProtocol.createStream({ model: 'm', messages: [], stream: true }, { body: {} });
    expect(out.push(chunk('hi', null))).toBe(`data: ${JSON.stringify(chunk('hi'))}\n\n`);
    expect(out.push(chunk(undefined, USAGE))).toBe('');
    expect(out.end()).toBe('data: [DONE]\n\n');
  });

  it('keeps the usage chunk for a client that asked, and reports a failure as an error event before [DONE]', () => {
    const out = openAiChatProtocol.createStream(
      { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } },
      { body: {} },
    );
    expect(out.push(chunk(undefined, USAGE))).toContain('"completion_tokens":2');
    const failure = out.fail(new RelayError(ErrorCode.UpstreamError, 'broken'));
    expect(failure).toContain('"message":"broken"');
    expect(failure.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('refuses a body without model or messages with a 400 naming the field', () => {
    expect(() => openAiChatProtocol.toChatRequest({ body: { model: 'm' } })).toThrow(/messages/);
    expect(() => openAiChatProtocol.toChatRequest({ body: { model: 'm' } })).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});

describe('Gemini client stream', () => {
  it('writes SSE events with alt=sse and a valid JSON array without it', () => {
    const request = { model: 'm', messages: [], stream: true };
    const sse = geminiGenerateProtocol.createStream(request, {
      body: {},
      stream: true,
      query: { alt: 'sse' },
    });
    expect(sse.contentType).toContain('text/event-stream');
    expect(sse.push(chunk('hi'))).toMatch(/^data: \{/);

    const array = geminiGenerateProtocol.createStream(request, { body: {}, stream: true, query: {} });
    const text =
      array.push(chunk('hi')) +
      array.push(chunk(' there')) +
      array.push(chunk(undefined, USAGE)) +
      array.end();
    const parsed = JSON.parse(text) as { usageMetadata?: unknown }[];
    expect(parsed.length).toBeGreaterThan(1);
    expect(parsed.at(-1)?.usageMetadata).toBeDefined();
  });

  it('closes an empty array stream and a failed one as valid JSON', () => {
    const request = { model: 'm', messages: [], stream: true };
    const empty = geminiGenerateProtocol.createStream(request, { body: {}, stream: true, query: {} });
    expect(Array.isArray(JSON.parse(empty.end()))).toBe(true);
    const failed = geminiGenerateProtocol.createStream(request, { body: {}, stream: true, query: {} });
    const text = failed.push(chunk('hi')) + failed.fail(new RelayError(ErrorCode.UpstreamError, 'broken'));
    expect((JSON.parse(text) as unknown[]).at(-1)).toMatchObject({ error: { code: 502 } });
  });
});
