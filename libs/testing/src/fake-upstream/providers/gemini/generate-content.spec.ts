import type { Reply } from '../../fake-upstream.reply';
import { completionText } from '../../generation/completion-text';
import { countPromptTokens } from '../../generation/prompt-tokens';
import { TOOL_CALL_MARKER } from '../../generation/tool-choice';
import { anUpstreamRequest } from '../../upstream-request.builder';
import { generateContent } from './generate-content';

interface GeminiResponse {
  candidates: Array<{
    content: {
      role: string;
      parts: Array<{ text?: string; functionCall?: { name: string; args: unknown } }>;
    };
    finishReason?: string;
  }>;
  usageMetadata: { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number };
}

const body = {
  systemInstruction: { parts: [{ text: 'Be brief.' }] },
  contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
};
const request = (overrides: object, query = ''): ReturnType<typeof anUpstreamRequest> =>
  anUpstreamRequest(
    { ...body, ...overrides },
    { params: { model: 'gemini-2.5-flash' }, query: new URLSearchParams(query) },
  );

function parse(reply: Reply): GeminiResponse {
  if (reply.kind !== 'json') throw new Error(`expected JSON, got ${reply.kind}`);
  return JSON.parse(reply.body) as GeminiResponse;
}

function streamed(reply: Reply): string {
  if (reply.kind !== 'stream') throw new Error(`expected a stream, got ${reply.kind}`);
  return reply.head + reply.deltas.join('') + reply.tail;
}

describe('generateContent', () => {
  it('answers candidates with usageMetadata counted from the input', () => {
    const answer = parse(generateContent(request({}), false));
    const promptTokens = countPromptTokens(['Be brief.', 'Hello']);
    expect(answer.candidates[0]).toMatchObject({
      content: { role: 'model', parts: [{ text: completionText(16, 4).text }] },
      finishReason: 'STOP',
    });
    expect(answer.usageMetadata).toMatchObject({
      promptTokenCount: promptTokens,
      candidatesTokenCount: 16,
      totalTokenCount: promptTokens + 16,
    });
  });

  it('reports MAX_TOKENS when maxOutputTokens cuts the answer', () => {
    const answer = parse(generateContent(request({ generationConfig: { maxOutputTokens: 3 } }), false));
    expect(answer.candidates[0]!.finishReason).toBe('MAX_TOKENS');
    expect(answer.usageMetadata.candidatesTokenCount).toBe(3);
  });

  it('streams SSE chunks whose last one carries the finish reason and full usage', () => {
    const sse = streamed(generateContent(request({}, 'alt=sse'), true))
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((frame) => JSON.parse(frame.slice('data: '.length)) as GeminiResponse);
    expect(sse).toHaveLength(4);
    expect(sse.map((chunk) => chunk.candidates[0]!.content.parts[0]!.text).join('')).toBe(
      completionText(16, 4).text,
    );
    expect(sse[2]!.candidates[0]!.finishReason).toBeUndefined();
    expect(sse[3]!.candidates[0]!.finishReason).toBe('STOP');
    expect(sse[3]!.usageMetadata.candidatesTokenCount).toBe(16);
  });

  it('streams a JSON array without alt=sse', () => {
    const chunks = JSON.parse(streamed(generateContent(request({}), true))) as GeminiResponse[];
    expect(chunks).toHaveLength(4);
    expect(chunks[3]!.candidates[0]!.finishReason).toBe('STOP');
  });

  it('answers a functionCall part when asked for a tool', () => {
    const tools = [
      {
        functionDeclarations: [
          { name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } },
        ],
      },
    ];
    const answer = parse(
      generateContent(
        request({ tools, contents: [{ role: 'user', parts: [{ text: TOOL_CALL_MARKER }] }] }),
        false,
      ),
    );
    expect(answer.candidates[0]!.content.parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'fake-city' } } },
    ]);
  });

  it('refuses a request without contents with INVALID_ARGUMENT', () => {
    const reply = generateContent(anUpstreamRequest({}), false);
    expect(reply).toMatchObject({ kind: 'json', status: 400 });
    expect(reply.kind === 'json' && JSON.parse(reply.body)).toMatchObject({
      error: { code: 400, status: 'INVALID_ARGUMENT' },
    });
  });
});
