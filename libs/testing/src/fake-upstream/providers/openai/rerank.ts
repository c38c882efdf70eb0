import { createHash } from 'node:crypto';
import { jsonReply, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString } from '../../request-fields';
import { invalidParameter, missingParameter } from './openai.family';

const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** The share of the query's words the document holds: enough to order documents predictably. */
function relevance(query: Set<string>, document: string): number {
  if (query.size === 0) return 0;
  const inDocument = words(document);
  let shared = 0;
  for (const word of query) if (inDocument.has(word)) shared += 1;
  return Math.round((shared / query.size) * 10_000) / 10_000;
}

function documentTexts(documents: unknown): string[] | undefined {
  const items = asArray(documents);
  if (items === undefined || items.length === 0) return undefined;
  const texts: string[] = [];
  for (const item of items) {
    if (typeof item === 'string') texts.push(item);
    else if (typeof asObject(item)?.['text'] === 'string') texts.push(asObject(item)!['text'] as string);
    else return undefined;
  }
  return texts;
}

/**
 * POST /v1/rerank, the Jina/Cohere shape new-api relays: results ordered by relevance with their
 * index, documents when asked, and a usage block of the tokens read.
 */
export function rerank(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  const model = asString(body['model']);
  if (model === undefined) return missingParameter('model');
  const query = asString(body['query']);
  if (query === undefined) return missingParameter('query');
  if (body['documents'] === undefined) return missingParameter('documents');
  const documents = documentTexts(body['documents']);
  if (documents === undefined)
    return invalidParameter(
      'documents',
      "'documents' must be a non-empty array of strings or {text} objects.",
    );
  const topN = asPositiveInt(body['top_n']) ?? documents.length;
  const returnDocuments = body['return_documents'] === true;
  const queryWords = words(query);
  const results = documents
    .map((text, index) => ({
      index,
      relevance_score: relevance(queryWords, text),
      ...(returnDocuments ? { document: { text } } : {}),
    }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, topN);
  const promptTokens = request.promptTokens.count([query, ...documents]);
  const id = createHash('sha256').update(query).digest('hex').slice(0, 24);
  return jsonReply(200, {
    id: `rerank-${id}`,
    model,
    results,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  });
}
