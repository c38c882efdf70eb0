import type Anthropic from '@anthropic-ai/sdk';
import type { Reply } from '../../fake-upstream.reply';
import { completionText } from '../../generation/completion-text';
import { countPromptTokens } from '../../generation/prompt-tokens';
import { anUpstreamRequest } from '../../upstream-request.builder';
import { countMessageTokens, messages } from './messages';
import { fakeThinkingSignature, FAKE_THINKING } from './thinking-and-cache';

function events(reply: Reply): Anthropic.RawMessageStreamEvent[] {
  if (reply.kind !== 'stream') throw new Error(`expected a stream, got ${reply.kind}`);
  return (reply.head + reply.deltas.join('') + reply.tail)
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      const event = JSON.parse(dataLine!.slice('data: '.length)) as Anthropic.RawMessageStreamEvent;
      expect(eventLine).toBe(`event: ${event.type}`);
      return event;
    });
}

function message(reply: Reply): Anthropic.Message {
  if (reply.kind !== 'json' || reply.status !== 200) throw new Error('expected a 200 JSON reply');
  return JSON.parse(reply.body) as Anthropic.Message;
}

const base = {
  model: 'claude-sonnet-5-5',
  max_tokens: 100,
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [{ role: 'user', content: 'Hello' }],
};
const weatherTool = {
  name: 'get_weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('messages', () => {
  it('answers a text message with input tokens counted from system and messages', () => {
    const answer = message(messages(anUpstreamRequest(base)));
    expect(answer).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: completionText(16, 4).text }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: countPromptTokens(['Be brief.', 'Hello']),
        output_tokens: 16,
        cache_read_input_tokens: 0,
      },
    });
  });

  it('stops with max_tokens when the request allows fewer tokens', () => {
    const answer = message(messages(anUpstreamRequest({ ...base, max_tokens: 2 })));
    expect(answer.stop_reason).toBe('max_tokens');
    expect(answer.usage.output_tokens).toBe(2);
  });

  it('streams the real event sequence', () => {
    const stream = events(messages(anUpstreamRequest({ ...base, stream: true })));
    expect(stream.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const text = stream
      .map((event) =>
        event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? event.delta.text : '',
      )
      .join('');
    expect(text).toBe(completionText(16, 4).text);
    expect(stream[8]).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 16 } });
  });

  it('streams a forced tool_use as input_json_delta', () => {
    const stream = events(
      messages(
        anUpstreamRequest({
          ...base,
          stream: true,
          tools: [weatherTool],
          tool_choice: { type: 'tool', name: 'get_weather' },
        }),
      ),
    );
    expect(stream[1]).toMatchObject({ content_block: { type: 'tool_use', name: 'get_weather', input: {} } });
    const json = stream
      .map((event) =>
        event.type === 'content_block_delta' && event.delta.type === 'input_json_delta'
          ? event.delta.partial_json
          : '',
      )
      .join('');
    expect(JSON.parse(json)).toEqual({ city: 'fake-city' });
    expect(stream.at(-2)).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('requires max_tokens, as Anthropic does', () => {
    const { max_tokens: _maxTokens, ...withoutMax } = base;
    const reply = messages(anUpstreamRequest(withoutMax));
    expect(reply).toMatchObject({ kind: 'json', status: 400 });
    expect(reply.kind === 'json' && JSON.parse(reply.body)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: Field required' },
    });
  });

  it('counts tokens like the messages route', () => {
    const reply = countMessageTokens(anUpstreamRequest(base));
    expect(reply.kind === 'json' && JSON.parse(reply.body)).toEqual({
      input_tokens: countPromptTokens(['Be brief.', 'Hello']),
    });
  });
});

describe('messages under anthropic-version 2026-10-21', () => {
  it('refuses the removed sampling parameters, and accepts them under 2023-06-01', () => {
    const withTemperature = { ...base, temperature: 0.2 };
    const newer = messages(
      anUpstreamRequest(withTemperature, { headers: { 'anthropic-version': '2026-10-21' } }),
    );
    expect(newer).toMatchObject({ kind: 'json', status: 400 });
    const older = messages(
      anUpstreamRequest(withTemperature, { headers: { 'anthropic-version': '2023-06-01' } }),
    );
    expect(older).toMatchObject({ kind: 'json', status: 200 });
  });
});

describe('messages with extended thinking', () => {
  const thinkingRequest = { ...base, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } };

  it('answers a signed thinking block before the text, as Anthropic does', () => {
    const answer = message(messages(anUpstreamRequest(thinkingRequest)));
    expect(answer.content[0]).toEqual({
      type: 'thinking',
      thinking: FAKE_THINKING,
      signature: fakeThinkingSignature(FAKE_THINKING),
    });
    expect(answer.content[1]).toMatchObject({ type: 'text' });
  });

  it('streams the thinking block with thinking_delta and signature_delta, then the text at index 1', () => {
    const streamed = events(messages(anUpstreamRequest({ ...thinkingRequest, stream: true })));
    const deltas = streamed.flatMap((event) => (event.type === 'content_block_delta' ? [event] : []));
    expect(deltas[0]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'thinking_delta', thinking: FAKE_THINKING },
    });
    expect(deltas[1]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'signature_delta', signature: fakeThinkingSignature(FAKE_THINKING) },
    });
    expect(deltas.slice(2).every((event) => event.index === 1 && event.delta.type === 'text_delta')).toBe(
      true,
    );
  });

  it('refuses a budget below 1024 or not below max_tokens, as Anthropic does', () => {
    const low = messages(
      anUpstreamRequest({ ...thinkingRequest, thinking: { type: 'enabled', budget_tokens: 500 } }),
    );
    expect(low).toMatchObject({ kind: 'json', status: 400 });
    const high = messages(anUpstreamRequest({ ...thinkingRequest, max_tokens: 2048 }));
    expect(high).toMatchObject({ kind: 'json', status: 400 });
  });

  it('refuses a history thinking block without its signature, or with another, and takes it signed', () => {
    const history = (block: object) => ({
      ...thinkingRequest,
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: [block, { type: 'text', text: 'Hi' }] },
        { role: 'user', content: 'Again' },
      ],
    });
    const unsigned = messages(anUpstreamRequest(history({ type: 'thinking', thinking: FAKE_THINKING })));
    expect(unsigned).toMatchObject({ kind: 'json', status: 400 });
    expect(unsigned.kind === 'json' && unsigned.body).toContain('messages.1.content.0.thinking.signature');
    const forged = messages(
      anUpstreamRequest(history({ type: 'thinking', thinking: FAKE_THINKING, signature: 'forged' })),
    );
    expect(forged).toMatchObject({ kind: 'json', status: 400 });
    const signed = history({
      type: 'thinking',
      thinking: FAKE_THINKING,
      signature: fakeThinkingSignature(FAKE_THINKING),
    });
    expect(messages(anUpstreamRequest(signed))).toMatchObject({ kind: 'json', status: 200 });
  });
});

describe('messages with prompt caching', () => {
  const longText = Array.from({ length: 600 }, (_, i) => `reference line ${i}`).join('\n');
  const cachedRequest = {
    ...base,
    system: [{ type: 'text', text: longText, cache_control: { type: 'ephemeral' } }],
  };

  it('writes a long prefix to the cache on first use and reads it after, apart from input_tokens', () => {
    const request = anUpstreamRequest(cachedRequest);
    const prefixTokens = countPromptTokens([longText]);
    const first = message(messages(request)).usage;
    expect(first).toMatchObject({ cache_creation_input_tokens: prefixTokens, cache_read_input_tokens: 0 });
    const second = message(messages({ ...request, sequence: 2 })).usage;
    expect(second).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: prefixTokens });
    expect(second.input_tokens).toBe(countPromptTokens([longText, 'Hello']) - prefixTokens);
  });

  it('tells the cache usage in the stream too, in message_start and message_delta', () => {
    const request = anUpstreamRequest({ ...cachedRequest, stream: true });
    messages(request);
    const streamed = events(messages(request));
    const start = streamed.find((event) => event.type === 'message_start');
    const delta = streamed.find((event) => event.type === 'message_delta');
    const read = { cache_read_input_tokens: countPromptTokens([longText]) };
    expect(start?.type === 'message_start' && start.message.usage).toMatchObject(read);
    expect(delta?.type === 'message_delta' && delta.usage).toMatchObject(read);
  });

  it('splits the writes by lifetime: before the last 1-hour breakpoint for an hour, the rest for 5 minutes', () => {
    const hourText = Array.from({ length: 600 }, (_, i) => `policy line ${i}`).join('\n');
    const request = anUpstreamRequest({
      ...base,
      system: [
        { type: 'text', text: hourText, cache_control: { type: 'ephemeral', ttl: '1h' } },
        { type: 'text', text: longText, cache_control: { type: 'ephemeral' } },
      ],
    });
    const written = countPromptTokens([hourText, longText]);
    const hour = countPromptTokens([hourText]);
    expect(message(messages(request)).usage).toMatchObject({
      cache_creation_input_tokens: written,
      cache_creation: { ephemeral_5m_input_tokens: written - hour, ephemeral_1h_input_tokens: hour },
    });
    expect(message(messages({ ...request, sequence: 2 })).usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: written,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    });
  });

  it('tells the split of a 5-minute write in message_start, and leaves it out of message_delta as Anthropic does', () => {
    const streamed = events(messages(anUpstreamRequest({ ...cachedRequest, stream: true })));
    const start = streamed.find((event) => event.type === 'message_start');
    const delta = streamed.find((event) => event.type === 'message_delta');
    const prefixTokens = countPromptTokens([longText]);
    expect(start?.type === 'message_start' && start.message.usage).toMatchObject({
      cache_creation: { ephemeral_5m_input_tokens: prefixTokens, ephemeral_1h_input_tokens: 0 },
    });
    expect(delta?.type === 'message_delta' && delta.usage).not.toHaveProperty('cache_creation');
  });

  it('tells no split to a request that set no breakpoint', () => {
    expect(message(messages(anUpstreamRequest(base))).usage).not.toHaveProperty('cache_creation');
  });

  it('caches nothing below 1024 tokens or without a breakpoint', () => {
    const short = {
      ...base,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
    };
    expect(message(messages(anUpstreamRequest(short))).usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
  });
});
