import type { EmbeddingsEndpoint } from '../provider-adapter';
import { isVector, MalformedUpstreamResponseError } from '../../canonical';
import { baseUrlOrDefault, JSON_CONTENT_TYPE, joinUrl } from '../upstream-request';
import { GEMINI_DEFAULT_BASE_URL } from './count-tokens';

/** `:batchEmbedContents`, one request per text; Gemini reports no usage, so the relay counts the texts. */
export const geminiEmbeddings: EmbeddingsEndpoint = {
  request: (input, target) => {
    const model = `models/${target.upstreamModel}`;
    return {
      method: 'POST',
      url: joinUrl(
        baseUrlOrDefault(target, GEMINI_DEFAULT_BASE_URL),
        `/v1beta/models/${encodeURIComponent(target.upstreamModel)}:batchEmbedContents`,
      ),
      headers: { 'content-type': JSON_CONTENT_TYPE, 'x-goog-api-key': target.apiKey },
      body: JSON.stringify({
        requests: input.texts.map((text) => ({
          model,
          content: { parts: [{ text }] },
          ...(input.dimensions === undefined ? {} : { outputDimensionality: input.dimensions }),
        })),
      }),
      stream: false,
    };
  },
  parse: (body, texts) => {
    const embeddings = (body as { embeddings?: unknown } | null)?.embeddings;
    if (!Array.isArray(embeddings) || embeddings.length !== texts)
      throw new MalformedUpstreamResponseError(`batchEmbedContents answer without ${texts} embeddings`);
    return {
      vectors: embeddings.map((item) => {
        const values = (item as { values?: unknown } | null)?.values;
        if (!isVector(values)) throw new MalformedUpstreamResponseError('embedding without float values');
        return values;
      }),
    };
  },
};
