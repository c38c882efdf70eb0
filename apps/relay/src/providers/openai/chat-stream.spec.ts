import { UpstreamStreamError } from '../provider-errors';
import { OpenAiChatStream } from './chat-stream';

const chunk = (fields: object) => ({
  data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', ...fields }),
});

describe('OpenAiChatStream', () => {
  it('passes chunks through, skips [DONE] and remembers the usage chunk with cached tokens', () => {
    const stream = new OpenAiChatStream();
    const text = chunk({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] });
    expect(stream.push(text)).toEqual([JSON.parse(text.data)]);
    expect(stream.usage()).toBeUndefined();
    stream.push(
      chunk({
        choices: [],
        usage: {
          prompt_tokens: 20,
          completion_tokens: 3,
          total_tokens: 23,
          prompt_tokens_details: { cached_tokens: 16 },
        },
      }),
    );
    expect(stream.push({ data: '[DONE]' })).toEqual([]);
    expect(stream.end()).toEqual([]);
    expect(stream.usage()).toEqual({ prompt_tokens: 20, completion_tokens: 3, cached_tokens: 16 });
  });

  it('reads usage from the last choice, where Moonshot puts it', () => {
    const stream = new OpenAiChatStream();
    stream.push(
      chunk({
        choices: [
          { index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 5, completion_tokens: 2 } },
        ],
      }),
    );
    expect(stream.usage()).toEqual({ prompt_tokens: 5, completion_tokens: 2, cached_tokens: 0 });
  });

  it('raises an error event sent mid-stream', () => {
    const stream = new OpenAiChatStream();
    expect(() =>
      stream.push({ data: JSON.stringify({ error: { type: 'server_error', message: 'overloaded' } }) }),
    ).toThrow(UpstreamStreamError);
  });
});
