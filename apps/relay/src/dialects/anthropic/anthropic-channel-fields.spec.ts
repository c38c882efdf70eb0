import { AnthropicChatStream } from '../../providers/anthropic/chat-stream';
import { toAnthropicMessagesRequest } from '../../providers/anthropic/chat-request';
import { fromAnthropicMessage } from '../../providers/anthropic/chat-response';
import type { AnthropicMessagesRequest } from '../../providers/anthropic/types';
import type { ChatCompletionChunk } from '../../canonical';
import { SseDecoder } from '../../sse/sse';
import { fromAnthropicClientRequest } from './request';
import { toAnthropicClientResponse } from './response';
import { AnthropicClientStream } from './stream';

// An Anthropic client (Claude Code, the Anthropic SDKs) on an Anthropic channel: what Anthropic's API
// needs for extended thinking and prompt caching survives the canonical form both ways. Shapes as
// Anthropic documents them (extended thinking with tool use, prompt caching).

const CACHE = { type: 'ephemeral' } as const;
const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds';
const REDACTED = 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP';

const CLIENT_REQUEST: AnthropicMessagesRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 16000,
  thinking: { type: 'enabled', budget_tokens: 10000 },
  system: [
    { type: 'text', text: 'You are a weather assistant.' },
    { type: 'text', text: 'A long reference text.', cache_control: CACHE },
  ],
  tools: [
    {
      name: 'get_weather',
      description: 'Current weather in a city',
      input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      cache_control: CACHE,
    },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?', cache_control: CACHE }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should call the tool.', signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
      ],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '14 °C', cache_control: CACHE }],
    },
  ],
};

describe('an Anthropic client request on an Anthropic channel', () => {
  const upstream = toAnthropicMessagesRequest(fromAnthropicClientRequest(CLIENT_REQUEST), 'claude-upstream');

  it('keeps the thinking config', () => {
    expect(upstream.thinking).toEqual({ type: 'enabled', budget_tokens: 10000 });
    const disabled = { ...CLIENT_REQUEST, thinking: { type: 'disabled' } };
    expect(toAnthropicMessagesRequest(fromAnthropicClientRequest(disabled), 'm').thinking).toEqual({
      type: 'disabled',
    });
  });

  it('keeps cache_control on system blocks, tools, text blocks and tool results', () => {
    expect(upstream.system).toEqual([
      { type: 'text', text: 'You are a weather assistant.' },
      { type: 'text', text: 'A long reference text.', cache_control: CACHE },
    ]);
    expect(upstream.tools?.[0]).toMatchObject({ name: 'get_weather', cache_control: CACHE });
    expect(upstream.messages[0]!.content).toEqual([
      { type: 'text', text: 'Weather in Paris?', cache_control: CACHE },
    ]);
    expect(upstream.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01', content: '14 °C', cache_control: CACHE },
    ]);
  });

  it('sends the history thinking and redacted_thinking blocks back unchanged, signature and data included', () => {
    expect(upstream.messages[1]).toEqual(CLIENT_REQUEST.messages[1]);
  });

  it('leaves all of it out of a JSON body built from the canonical request for another upstream', () => {
    const json = JSON.stringify(fromAnthropicClientRequest(CLIENT_REQUEST));
    expect(json).not.toMatch(/cache_control|thinking|signature|redacted/);
  });

  it('sends a request without these fields as before: system a string, no thinking', () => {
    const plain = toAnthropicMessagesRequest(
      fromAnthropicClientRequest({
        model: 'm',
        max_tokens: 10,
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [{ role: 'user', content: 'Hi' }],
      }),
      'm',
    );
    expect(plain).toEqual({
      model: 'm',
      max_tokens: 10,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });
});

const CONTEXT = { created: 1_700_000_000, model: 'claude-upstream' };
const CACHE_USAGE = {
  input_tokens: 21,
  cache_creation_input_tokens: 1800,
  cache_read_input_tokens: 2400,
  output_tokens: 310,
};

describe('an Anthropic channel answer with thinking, to an Anthropic client', () => {
  const content = [
    { type: 'thinking', thinking: 'The tool said 14 °C.', signature: SIGNATURE },
    { type: 'redacted_thinking', data: REDACTED },
    { type: 'text', text: 'It is 14 °C in Paris.' },
  ];
  const answer = toAnthropicClientResponse(
    fromAnthropicMessage(
      {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: 'claude-upstream',
        content,
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: CACHE_USAGE,
      },
      CONTEXT,
    ),
    'claude-sonnet-4-5',
  );

  it('gives the thinking blocks with their signature and data, in order', () => {
    expect(answer.content).toEqual(content);
  });

  it('tells cache writes and reads as Anthropic does', () => {
    expect(answer.usage).toEqual(CACHE_USAGE);
  });
});

function sse(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

const THINKING_STREAM = [
  sse('message_start', {
    message: {
      id: 'msg_02',
      type: 'message',
      role: 'assistant',
      model: 'claude-upstream',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...CACHE_USAGE, output_tokens: 1 },
    },
  }),
  sse('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  sse('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'The tool said ' } }),
  sse('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: '14 °C.' } }),
  sse('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } }),
  sse('content_block_stop', { index: 0 }),
  sse('content_block_start', { index: 1, content_block: { type: 'redacted_thinking', data: REDACTED } }),
  sse('content_block_stop', { index: 1 }),
  sse('content_block_start', { index: 2, content_block: { type: 'text', text: '' } }),
  sse('content_block_delta', { index: 2, delta: { type: 'text_delta', text: 'It is 14 °C.' } }),
  sse('content_block_stop', { index: 2 }),
  sse('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 310 },
  }),
  sse('message_stop', {}),
].join('');

interface ClientEvent {
  type: string;
  index?: number;
  content_block?: unknown;
  delta?: unknown;
  usage?: unknown;
}

function streamedToAnthropicClient(body: string): ClientEvent[] {
  const decoder = new SseDecoder();
  const upstream = new AnthropicChatStream(CONTEXT);
  const chunks: ChatCompletionChunk[] = [];
  for (const event of [...decoder.push(body), ...decoder.end()]) chunks.push(...upstream.push(event));
  const client = new AnthropicClientStream('claude-sonnet-4-5');
  return [...chunks.flatMap((chunk) => client.push(chunk)), ...client.end()].map(
    (event) => JSON.parse(event.data) as ClientEvent,
  );
}

describe('an Anthropic channel stream with thinking, to an Anthropic client', () => {
  const events = streamedToAnthropicClient(THINKING_STREAM);
  const blockEvents = events.filter((event) => event.type.startsWith('content_block'));

  it('streams the thinking block with its signature_delta, the redacted block with its data, then the text', () => {
    expect(blockEvents).toEqual([
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'The tool said ' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: '14 °C.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: REDACTED } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'It is 14 °C.' } },
      { type: 'content_block_stop', index: 2 },
    ]);
  });

  it('tells cache writes and reads in message_delta as Anthropic does', () => {
    expect(events.find((event) => event.type === 'message_delta')?.usage).toEqual(CACHE_USAGE);
  });
});
