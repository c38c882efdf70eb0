import type OpenAI from 'openai';
import type { Reply } from '../../fake-upstream.reply';
import { completionText } from '../../generation/completion-text';
import { countPromptTokens } from '../../generation/prompt-tokens';
import { anUpstreamRequest } from '../../upstream-request.builder';
import { responses } from './responses';

function events(reply: Reply): OpenAI.Responses.ResponseStreamEvent[] {
  if (reply.kind !== 'stream') throw new Error(`expected a stream, got ${reply.kind}`);
  return (reply.head + reply.deltas.join('') + reply.tail)
    .split('\n\n')
    .filter(Boolean)
    .map(
      (frame) =>
        JSON.parse(frame.split('\n')[1]!.slice('data: '.length)) as OpenAI.Responses.ResponseStreamEvent,
    );
}

describe('responses', () => {
  const body = {
    model: 'gpt-4.1-mini',
    instructions: 'Be brief.',
    input: [{ role: 'user', content: 'Hello' }],
  };

  it('answers a completed response with a message output and usage', () => {
    const reply = responses(anUpstreamRequest(body));
    if (reply.kind !== 'json') throw new Error('expected JSON');
    const response = JSON.parse(reply.body) as OpenAI.Responses.Response;
    expect(response.status).toBe('completed');
    expect(response.output[0]).toMatchObject({
      type: 'message',
      content: [{ type: 'output_text', text: completionText(16, 4).text }],
    });
    expect(response.usage).toMatchObject({
      input_tokens: countPromptTokens(['Be brief.', 'Hello']),
      output_tokens: 16,
    });
  });

  it('streams the Responses API events in order with growing sequence numbers', () => {
    const stream = events(responses(anUpstreamRequest({ ...body, stream: true })));
    expect(stream.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(stream.map((event) => event.sequence_number)).toEqual(stream.map((_, index) => index));
  });

  it('streams a function call when a tool is required', () => {
    const tools = [
      {
        type: 'function',
        name: 'lookup',
        parameters: { type: 'object', properties: { q: { type: 'string' } } },
      },
    ];
    const stream = events(
      responses(anUpstreamRequest({ ...body, stream: true, tools, tool_choice: 'required' })),
    );
    const done = stream.find((event) => event.type === 'response.function_call_arguments.done');
    expect(done).toMatchObject({ arguments: '{"q":"fake-q"}' });
    const completed = stream.at(-1);
    expect(completed).toMatchObject({
      type: 'response.completed',
      response: { output: [{ type: 'function_call', name: 'lookup' }] },
    });
  });
});
