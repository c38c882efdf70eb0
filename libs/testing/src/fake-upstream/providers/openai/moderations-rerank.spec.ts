import type { Reply } from '../../fake-upstream.reply';
import { countPromptTokens } from '../../generation/prompt-tokens';
import { anUpstreamRequest } from '../../upstream-request.builder';
import { moderations } from './moderations';
import { rerank } from './rerank';

function json(reply: Reply): { status: number; body: Record<string, unknown> } {
  if (reply.kind !== 'json') throw new Error(`expected JSON, got ${reply.kind}`);
  return { status: reply.status, body: JSON.parse(reply.body) as Record<string, unknown> };
}

describe('moderations', () => {
  it('answers one result per input in OpenAI’s shape, flagging its word list, with no usage', () => {
    const { status, body } = json(moderations(anUpstreamRequest({ input: ['I will kill it', 'Hello'] })));
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: expect.stringMatching(/^modr-/), model: 'omni-moderation-latest' });
    const results = body['results'] as { flagged: boolean; categories: Record<string, boolean> }[];
    expect(results.map((r) => r.flagged)).toEqual([true, false]);
    expect(results[0]!.categories['violence']).toBe(true);
    expect(body['usage']).toBeUndefined();
  });

  it('refuses a body without input or with another shape', () => {
    expect(json(moderations(anUpstreamRequest({}))).status).toBe(400);
    expect(json(moderations(anUpstreamRequest({ input: [42] }))).status).toBe(400);
  });
});

describe('rerank', () => {
  const documents = [
    'Paris is the capital of France',
    'Bananas are yellow',
    { text: 'France borders Spain' },
  ];

  it('orders documents by the words they share with the query, with top_n, documents and usage', () => {
    const { status, body } = json(
      rerank(
        anUpstreamRequest({
          model: 'jina-reranker-v2',
          query: 'capital of France',
          documents,
          top_n: 2,
          return_documents: true,
        }),
      ),
    );
    expect(status).toBe(200);
    expect(body['results']).toEqual([
      { index: 0, relevance_score: 1, document: { text: documents[0] } },
      { index: 2, relevance_score: 0.3333, document: { text: 'France borders Spain' } },
    ]);
    const tokens = countPromptTokens([
      'capital of France',
      documents[0] as string,
      'Bananas are yellow',
      'France borders Spain',
    ]);
    expect(body['usage']).toEqual({ prompt_tokens: tokens, total_tokens: tokens });
  });

  it('names the missing or malformed field', () => {
    expect(json(rerank(anUpstreamRequest({ query: 'q', documents }))).status).toBe(400);
    expect(json(rerank(anUpstreamRequest({ model: 'm', documents }))).status).toBe(400);
    expect(json(rerank(anUpstreamRequest({ model: 'm', query: 'q', documents: [] }))).status).toBe(400);
  });
});
