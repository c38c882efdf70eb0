import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../../errors/relay-error';
import type { ChatCompletionChunk } from '../../canonical';
import { geminiGenerateProtocol } from './generate.protocol';

const chunk = (content: string | undefined, usage?: ChatCompletionChunk['usage']): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: content === undefined ? [] : [{ index: 0, delta: { content }, finish_reason: null }],
  ...(usage === undefined ? {} : { usage }),
});
const USAGE = { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 };

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
