import { UntranslatableRequestError } from '../../canonical';
import {
  geminiBatchEmbedContentsRequest,
  geminiBatchEmbedContentsResponse,
  geminiEmbedContentRequest,
  geminiEmbedContentResponse,
} from './embeddings';
import { geminiCountTokensRequestToChat } from './count-tokens';

describe('Gemini client embeddings', () => {
  it('reads embedContent (snake_case too) into one text with its dimensions', () => {
    expect(
      geminiEmbedContentRequest('text-embedding-004', {
        model: 'models/text-embedding-004',
        content: { parts: [{ text: 'What is the meaning of life?' }] },
        task_type: 'RETRIEVAL_QUERY',
        output_dimensionality: 256,
      }),
    ).toEqual({ texts: ['What is the meaning of life?'], dimensions: 256 });
  });

  it('reads a batch in order, as @google/genai sends embedContent with several contents', () => {
    expect(
      geminiBatchEmbedContentsRequest('gemini-embedding-001', {
        requests: ['first', 'second'].map((text) => ({
          model: 'models/gemini-embedding-001',
          content: { parts: [{ text }], role: 'user' },
        })),
      }),
    ).toEqual({ texts: ['first', 'second'] });
  });

  it.each([
    [
      'a media part',
      { requests: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data: '' } }] } }] },
    ],
    ['another model', { requests: [{ model: 'models/other', content: { parts: [{ text: 'x' }] } }] }],
    [
      'mixed vector sizes',
      {
        requests: [
          { content: { parts: [{ text: 'a' }] }, outputDimensionality: 8 },
          { content: { parts: [{ text: 'b' }] }, outputDimensionality: 16 },
        ],
      },
    ],
    ['no requests', { requests: [] }],
  ])('refuses a batch with %s (400)', (_what, body) => {
    expect(() => geminiBatchEmbedContentsRequest('m', body)).toThrow(UntranslatableRequestError);
  });

  it("answers in Gemini's shapes", () => {
    const answer = {
      vectors: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
    };
    expect(geminiEmbedContentResponse(answer)).toEqual({ embedding: { values: [0.1, 0.2] } });
    expect(geminiBatchEmbedContentsResponse(answer)).toEqual({
      embeddings: [{ values: [0.1, 0.2] }, { values: [0.3, 0.4] }],
    });
  });
});

describe('Gemini client countTokens', () => {
  it('counts bare contents, or a whole generateContentRequest with its system instruction', () => {
    expect(
      geminiCountTokensRequestToChat('m', { contents: [{ parts: [{ text: 'Hi' }] }] }).messages,
    ).toHaveLength(1);
    const wrapped = geminiCountTokensRequestToChat('m', {
      generateContentRequest: {
        model: 'models/m',
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      },
    });
    expect(wrapped.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(wrapped.stream).toBeUndefined();
  });

  it('refuses both forms at once, and no contents', () => {
    expect(() =>
      geminiCountTokensRequestToChat('m', {
        contents: [{ parts: [{ text: 'Hi' }] }],
        generateContentRequest: { contents: [{ parts: [{ text: 'Hi' }] }] },
      }),
    ).toThrow(UntranslatableRequestError);
    expect(() => geminiCountTokensRequestToChat('m', {})).toThrow(UntranslatableRequestError);
  });
});
