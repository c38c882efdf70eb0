import type { Reply } from '../fake-upstream.reply';
import { anUpstreamRequest } from '../upstream-request.builder';
import { messages } from './anthropic/messages';
import { generateContent } from './gemini/generate-content';
import { chatCompletions } from './openai/chat-completions';

const SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer', minimum: 1 },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city', 'days', 'unit'],
  additionalProperties: false,
};
const FITTING = { city: 'fake-city', days: 1, unit: 'celsius' };

/** The fields these tests read from the three families' answers. */
interface Answer {
  choices: { message: { content: string }; finish_reason: string }[];
  usage: { completion_tokens: number };
  candidates: { content: { parts: { text: string }[] } }[];
  content: { type: string; text: string }[];
  stop_reason: string;
}

function json(reply: Reply): Answer {
  if (reply.kind !== 'json') throw new Error(`expected JSON, got ${reply.kind}`);
  return JSON.parse(reply.body) as Answer;
}

function streamed(reply: Reply): string {
  if (reply.kind !== 'stream') throw new Error(`expected a stream, got ${reply.kind}`);
  return reply.deltas.join('');
}

describe('structured output in the fake upstream', () => {
  const chat = (responseFormat: unknown, extra: object = {}) =>
    chatCompletions(
      anUpstreamRequest({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Forecast' }],
        response_format: responseFormat,
        ...extra,
      }),
    );

  it.each([true, false])(
    'answers OpenAI json_schema (strict %s) with JSON that fits the schema',
    (strict) => {
      const answer = json(
        chat({ type: 'json_schema', json_schema: { name: 'forecast', strict, schema: SCHEMA } }),
      );
      expect(JSON.parse(answer.choices[0]!.message.content)).toEqual(FITTING);
      expect(answer.choices[0]!.finish_reason).toBe('stop');
      expect(answer.usage.completion_tokens).toBeGreaterThan(0);
    },
  );

  it('answers OpenAI json_object with a JSON object, also when max_tokens is short', () => {
    const answer = json(chat({ type: 'json_object' }, { max_tokens: 2 }));
    expect(JSON.parse(answer.choices[0]!.message.content)).toEqual({ answer: expect.any(String) });
    expect(answer.choices[0]!.finish_reason).toBe('stop');
  });

  it('streams the JSON in pieces that join to the fitting value', () => {
    const reply = chat(
      { type: 'json_schema', json_schema: { name: 'forecast', schema: SCHEMA } },
      { stream: true },
    );
    const text = streamed(reply)
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'))
      .map(
        (frame) =>
          (JSON.parse(frame.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta
            .content ?? '',
      )
      .join('');
    expect(JSON.parse(text)).toEqual(FITTING);
  });

  it.each([
    ['responseSchema', { ...SCHEMA, type: 'OBJECT' }],
    ['responseJsonSchema', SCHEMA],
  ])('answers Gemini %s with JSON that fits it', (field, schema) => {
    const reply = generateContent(
      anUpstreamRequest(
        {
          contents: [{ role: 'user', parts: [{ text: 'Forecast' }] }],
          generationConfig: { responseMimeType: 'application/json', [field]: schema },
        },
        { params: { model: 'gemini-2.5-flash' } },
      ),
      false,
    );
    expect(JSON.parse(json(reply).candidates[0]!.content.parts[0]!.text)).toEqual(FITTING);
  });

  it('answers Anthropic output_config.format with JSON text, and a forced tool with fitting input', () => {
    const base = { model: 'claude', max_tokens: 64, messages: [{ role: 'user', content: 'Forecast' }] };
    const formatted = json(
      messages(
        anUpstreamRequest({ ...base, output_config: { format: { type: 'json_schema', schema: SCHEMA } } }),
      ),
    );
    expect(JSON.parse(formatted.content[0]!.text)).toEqual(FITTING);
    expect(formatted.stop_reason).toBe('end_turn');
    const forced = json(
      messages(
        anUpstreamRequest({
          ...base,
          tools: [{ name: 'record', input_schema: SCHEMA }],
          tool_choice: { type: 'tool', name: 'record' },
        }),
      ),
    );
    expect(forced.content[0]).toMatchObject({ type: 'tool_use', name: 'record', input: FITTING });
  });
});
