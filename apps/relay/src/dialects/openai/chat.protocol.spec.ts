import { ErrorCode } from '@tollgate/contracts';
import { RelayError } from '../../errors/relay-error';
import { rememberUpstreamData, type ChatCompletionChunk } from '../../canonical';
import { chatRequestSchema, openAiChatProtocol, plainChatRequest } from './chat.protocol';

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

  it('sends an OpenAI chunk as its own bytes less the trailing null usage to a client that did not ask', () => {
    const out = openAiChatProtocol.createStream({ model: 'm', messages: [], stream: true }, { body: {} });
    // Escapes as the upstream wrote them: serialising the parsed chunk again would write "café".
    const data =
      '{"id":"c","choices":[{"index":0,"delta":{"content":"caf\\u00e9"},"finish_reason":null}],"usage":null}';
    const received = JSON.parse(data) as ChatCompletionChunk;
    rememberUpstreamData(received, data);
    expect(out.push(received)).toBe(
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"caf\\u00e9"},"finish_reason":null}]}\n\n',
    );
  });

  it('serialises a chunk again when its usage is not the plain trailing null', () => {
    const out = openAiChatProtocol.createStream({ model: 'm', messages: [], stream: true }, { body: {} });
    // Usage inside the choice as well (Moonshot's way): only the top-level member goes.
    const nested = '{"id":"c","choices":[{"index":0,"delta":{"content":"a"},"usage":{"x":1}}],"usage":null}';
    const withNested = JSON.parse(nested) as ChatCompletionChunk;
    rememberUpstreamData(withNested, nested);
    expect(out.push(withNested)).toBe(
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"a"},"usage":{"x":1}}]}\n\n',
    );
    const spaced = '{"id":"c","choices":[{"index":0,"delta":{"content":"caf\\u00e9"}}], "usage": null}';
    const withSpace = JSON.parse(spaced) as ChatCompletionChunk;
    rememberUpstreamData(withSpace, spaced);
    expect(out.push(withSpace)).toBe(
      'data: {"id":"c","choices":[{"index":0,"delta":{"content":"café"}}]}\n\n',
    );
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

describe('OpenAI chat body without zod (plainChatRequest)', () => {
  const message = { role: 'user', content: 'hi' };
  const FITTING: unknown[] = [
    { model: 'm', messages: [message] },
    { messages: [{ content: 'role last', role: 'user' }], temperature: 0.2, model: 'm', stream: true },
    { model: 'm'.repeat(128), messages: [message, { role: 'assistant', content: null, tool_calls: [] }] },
    { model: 'm', messages: [message], max_tokens: 16, max_completion_tokens: 32, stream: false },
    { toString: 'a key Object.prototype also has', model: 'm', messages: [{ role: 'tool', valueOf: 1 }] },
    { model: 'm', messages: [message], tools: [{ type: 'function', function: { name: 'f' } }], n: 1 },
  ];
  const DECLINED: unknown[] = [
    { models: ['a', 'b'], messages: [message] },
    { model: 'm', models: ['a'], messages: [message] },
    { model: '', messages: [message] },
    { model: 'm'.repeat(129), messages: [message] },
    { model: 7, messages: [message] },
    { model: 'm', messages: [] },
    { model: 'm', messages: {} },
    { model: 'm' },
    { model: 'm', messages: [{ content: 'no role' }] },
    { model: 'm', messages: [{ role: 1 }] },
    { model: 'm', messages: [null] },
    { model: 'm', messages: [[message]] },
    { model: 'm', messages: [message], stream: 'yes' },
    { model: 'm', messages: [message], max_tokens: 0 },
    { model: 'm', messages: [message], max_tokens: 1.5 },
    { model: 'm', messages: [message], max_completion_tokens: '5' },
    [{ model: 'm', messages: [message] }],
    null,
    'body',
    undefined,
  ];

  it.each(FITTING)('gives what the schema gives, keys in the same order: %j', (body) => {
    const plain = plainChatRequest(body);
    expect(plain).toBeDefined();
    expect(JSON.stringify(plain)).toBe(JSON.stringify(chatRequestSchema.parse(body)));
    expect(plain).toEqual(chatRequestSchema.parse(body));
  });

  it('copies the body and its messages, as the schema does', () => {
    const body = { model: 'm', messages: [{ ...message }] };
    const plain = plainChatRequest(body)!;
    expect(plain).not.toBe(body);
    expect(plain.messages[0]).not.toBe(body.messages[0]);
  });

  it.each(DECLINED)('leaves to the schema a body it does not plainly fit: %j', (body) => {
    expect(plainChatRequest(body)).toBeUndefined();
    const parsed = chatRequestSchema.safeParse(body);
    if (parsed.success) expect(openAiChatProtocol.toChatRequest({ body })).toEqual(parsed.data);
    else expect(() => openAiChatProtocol.toChatRequest({ body })).toThrow(RelayError);
  });
});
