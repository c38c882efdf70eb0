import type { Reply } from '../../fake-upstream.reply';
import { countPromptTokens } from '../../generation/prompt-tokens';
import { anUpstreamRequest } from '../../upstream-request.builder';
import { matchRoute } from '../../fake-upstream.routes';
import { countTokens } from './count-tokens';
import { batchEmbedContents, embedContent } from './embed-content';
import { generateContent } from './generate-content';

/** The fields these tests read from countTokens, generateContent and the embeddings answers. */
interface Answer {
  totalTokens: number;
  usageMetadata: { promptTokenCount: number };
  embedding: { values: number[] };
  embeddings: { values: number[] }[];
}

function json(reply: Reply): { status: number; body: Answer } {
  if (reply.kind !== 'json') throw new Error(`expected JSON, got ${reply.kind}`);
  return { status: reply.status, body: JSON.parse(reply.body) as Answer };
}

const params = { params: { model: 'gemini-embedding-001' } };
const prompt = {
  systemInstruction: { parts: [{ text: 'Be brief.' }] },
  contents: [{ role: 'user', parts: [{ text: 'How many tokens are in this sentence?' }] }],
};

describe('Gemini countTokens and embeddings in the fake upstream', () => {
  it('serves every method under v1 and v1beta', () => {
    for (const version of ['v1', 'v1beta'])
      for (const method of ['generateContent', 'countTokens', 'embedContent', 'batchEmbedContents'])
        expect(matchRoute('POST', `/${version}/models/m:${method}`, {})?.route.id).toBe(`gemini.${method}`);
  });

  it('counts a generateContentRequest as generateContent counts its prompt', () => {
    const generated = json(generateContent(anUpstreamRequest(prompt, { params: { model: 'g' } }), false));
    const counted = json(
      countTokens(anUpstreamRequest({ generateContentRequest: { model: 'models/g', ...prompt } })),
    );
    expect(counted.body.totalTokens).toBe(generated.body.usageMetadata.promptTokenCount);
    expect(counted.body.totalTokens).toBe(
      countPromptTokens(['Be brief.', 'How many tokens are in this sentence?']),
    );
    const plain = json(countTokens(anUpstreamRequest({ contents: prompt.contents })));
    expect(plain.body.totalTokens).toBe(countPromptTokens(['How many tokens are in this sentence?']));
  });

  it('refuses a count without contents', () => {
    expect(json(countTokens(anUpstreamRequest({}))).status).toBe(400);
  });

  it('embeds one content, and a batch in order, with the asked dimensions', () => {
    const one = json(
      embedContent(
        anUpstreamRequest({ content: { parts: [{ text: 'first' }] }, outputDimensionality: 4 }, params),
      ),
    );
    expect(one.body.embedding.values).toHaveLength(4);
    const batch = json(
      batchEmbedContents(
        anUpstreamRequest(
          {
            requests: ['first', 'second'].map((text) => ({
              model: 'models/gemini-embedding-001',
              content: { parts: [{ text }] },
              outputDimensionality: 4,
            })),
          },
          params,
        ),
      ),
    );
    expect(batch.body.embeddings).toHaveLength(2);
    expect(batch.body.embeddings[0]!.values).toEqual(one.body.embedding.values);
    expect(batch.body.embeddings[1]!.values).not.toEqual(one.body.embedding.values);
  });

  it("refuses a batch request naming another model than the path's", () => {
    const reply = batchEmbedContents(
      anUpstreamRequest(
        { requests: [{ model: 'models/other', content: { parts: [{ text: 'x' }] } }] },
        params,
      ),
    );
    expect(json(reply)).toMatchObject({ status: 400 });
  });
});
