import type Anthropic from '@anthropic-ai/sdk';
import type { Reply } from '../../fake-upstream.reply';
import { completionText } from '../../generation/completion-text';
import { countPromptTokens } from '../../generation/prompt-tokens';
import { anUpstreamRequest } from '../../upstream-request.builder';
import { countMessageTokens, messages } from './messages';

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
