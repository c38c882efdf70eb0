import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../../errors/relay-error';
import type { ChatCompletionChunk } from '../../canonical';
import { openAiChatProtocol } from './chat.protocol';

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
