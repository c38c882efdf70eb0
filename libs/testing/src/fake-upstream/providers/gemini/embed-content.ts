import { embeddingVector } from '../../generation/embedding-vector';
import { jsonReply, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString, type JsonObject } from '../../request-fields';
import { geminiError } from './gemini.family';

type Embedded = { values: number[] } | { error: Reply };

/** One EmbedContentRequest: the text of its content's parts, as a deterministic unit vector. */
function embedded(request: UpstreamRequest, item: JsonObject, where: string): Embedded {
  const parts = asArray(asObject(item['content'])?.['parts']);
  if (parts === undefined || parts.length === 0)
    return { error: geminiError(400, `* ${where}content: content is not specified`) };
  const texts = parts.map((part) => asString(asObject(part)?.['text']));
  if (texts.some((text) => text === undefined))
    return { error: geminiError(400, `* ${where}content.parts: only text parts can be embedded`) };
  const dimensions = asPositiveInt(item['outputDimensionality']) ?? request.settings.embeddingDimensions;
  return { values: Array.from(embeddingVector(texts.join('\n'), dimensions)) };
}

/** POST /v1beta|v1/models/{model}:embedContent: `{embedding: {values}}`, no usage, as Gemini answers. */
export function embedContent(request: UpstreamRequest): Reply {
  const result = embedded(request, asObject(request.body) ?? {}, 'EmbedContentRequest.');
  return 'error' in result ? result.error : jsonReply(200, { embedding: { values: result.values } });
}

/**
 * POST /v1beta|v1/models/{model}:batchEmbedContents: one embedding per request, in order. As in
 * Gemini, each request names the path's model (`models/{model}`).
 */
export function batchEmbedContents(request: UpstreamRequest): Reply {
  const requests = asArray(asObject(request.body)?.['requests']);
  if (requests === undefined || requests.length === 0)
    return geminiError(400, '* BatchEmbedContentsRequest.requests: requests is not specified');
  const model = `models/${request.params['model'] ?? ''}`;
  const embeddings: { values: number[] }[] = [];
  for (const [index, raw] of requests.entries()) {
    const item = asObject(raw) ?? {};
    if (asString(item['model']) !== model) {
      return geminiError(
        400,
        `* BatchEmbedContentsRequest.requests[${index}].model: the model must be ${model}, as in the path`,
      );
    }
    const result = embedded(request, item, `BatchEmbedContentsRequest.requests[${index}].`);
    if ('error' in result) return result.error;
    embeddings.push(result);
  }
  return jsonReply(200, { embeddings });
}
