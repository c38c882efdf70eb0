import type OpenAI from 'openai';
import type { Reply } from '../../fake-upstream.reply';
import { completionText } from '../../generation/completion-text';
import { countPromptTokens } from '../../generation/prompt-tokens';
import { TOOL_CALL_MARKER } from '../../generation/tool-choice';
import { anUpstreamRequest } from '../../upstream-request.builder';
import { chatCompletions } from './chat-completions';
import { openAiUsage, openAiUsageJson } from './usage';

function json<T = OpenAI.ChatCompletion>(reply: Reply): { status: number; body: T } {
  if (reply.kind !== 'json') throw new Error(`expected a JSON reply, got ${reply.kind}`);
  return { status: reply.status, body: JSON.parse(reply.body) as T };
}

/** The stream's chunks, and whether it ended with `data: [DONE]`. */
function sseChunks(reply: Reply): { chunks: OpenAI.ChatCompletionChunk[]; done: boolean } {
  if (reply.kind !== 'stream') throw new Error(`expected a stream, got ${reply.kind}`);
  const data = (reply.head + reply.deltas.join('') + reply.tail)
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => frame.slice(6));
  const done = data.at(-1) === '[DONE]';
  const chunks = (done ? data.slice(0, -1) : data).map(
    (chunk) => JSON.parse(chunk) as OpenAI.ChatCompletionChunk,
  );
  return { chunks, done };
}

const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('chatCompletions', () => {
  const messages = [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Hello' },
        { type: 'image_url', image_url: { url: 'x' } },
      ],
    },
  ];

  it('answers a chat.completion with honest usage', () => {
    const { status, body } = json(chatCompletions(anUpstreamRequest({ model: 'gpt-4o-mini', messages })));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: completionText(16, 4).text },
          finish_reason: 'stop',
        },
      ],
    });
    expect(body.usage).toEqual(openAiUsage(countPromptTokens(['Be brief.', 'Hello']), 16));
  });

  it('stops at max_tokens with finish_reason length', () => {
    const { body } = json(chatCompletions(anUpstreamRequest({ model: 'm', messages, max_tokens: 3 })));
    expect(body.choices[0]).toMatchObject({
      message: { content: 'Lorem ipsum dolor' },
      finish_reason: 'length',
    });
    expect(body.usage?.completion_tokens).toBe(3);
  });

  it('streams chunks carrying exactly the answer, usage only when asked', () => {
    const plain = sseChunks(chatCompletions(anUpstreamRequest({ model: 'm', messages, stream: true })));
    expect(plain.done).toBe(true);
    expect(plain.chunks.some((chunk) => 'usage' in chunk)).toBe(false);
    const text = plain.chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe(completionText(16, 4).text);

    const withUsage = sseChunks(
      chatCompletions(
        anUpstreamRequest({ model: 'm', messages, stream: true, stream_options: { include_usage: true } }),
      ),
    ).chunks;
    const usageChunk = withUsage.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage?.completion_tokens).toBe(16);
    expect(withUsage.at(-2)!.choices[0]!.finish_reason).toBe('stop');
  });

  it('calls the forced tool with schema-shaped arguments', () => {
    const { body } = json(
      chatCompletions(
        anUpstreamRequest({
          model: 'm',
          messages,
          tools: [weatherTool],
          tool_choice: { type: 'function', function: { name: 'get_weather' } },
        }),
      ),
    );
    expect(body.choices[0]!.finish_reason).toBe('tool_calls');
    expect(body.choices[0]!.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"fake-city"}' },
    });
    expect(body.usage?.completion_tokens).toBe(countPromptTokens(['{"city":"fake-city"}']));
  });

  it('calls a tool when the last message carries the marker, and streams its arguments', () => {
    const { chunks } = sseChunks(
      chatCompletions(
        anUpstreamRequest({
          model: 'm',
          stream: true,
          tools: [weatherTool],
          messages: [{ role: 'user', content: `please ${TOOL_CALL_MARKER}` }],
        }),
      ),
    );
    const args = chunks
      .map((chunk) => chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? '')
      .join('');
    expect(chunks[0]!.choices[0]!.delta.tool_calls?.[0]).toMatchObject({
      id: expect.any(String),
      function: { name: 'get_weather' },
    });
    expect(JSON.parse(args)).toEqual({ city: 'fake-city' });
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('answers text when tools are offered but not asked for', () => {
    const { body } = json(chatCompletions(anUpstreamRequest({ model: 'm', messages, tools: [weatherTool] })));
    expect(body.choices[0]!.finish_reason).toBe('stop');
  });

  it('refuses a request without messages in OpenAI error shape', () => {
    const { status, body } = json<OpenAI.ErrorObject & { error: OpenAI.ErrorObject }>(
      chatCompletions(anUpstreamRequest({ model: 'm' })),
    );
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ param: 'messages', code: 'missing_required_parameter' });
  });
});

describe('openAiUsageJson', () => {
  it('serialises the same object as openAiUsage', () => {
    expect(JSON.parse(openAiUsageJson(12, 34))).toEqual(openAiUsage(12, 34));
  });
});
