import {
  type EmbeddingsAnswer,
  type EmbeddingsRequest,
  isVector,
  MalformedUpstreamResponseError,
  type JsonObject,
  normalizeOpenAiUsage,
} from '../../canonical';

/** The body of `POST /embeddings` for texts; floats, since the vectors are read and re-encoded. */
export function openAiEmbeddingsBody(input: EmbeddingsRequest, model: string): JsonObject {
  return {
    model,
    input: [...input.texts],
    encoding_format: 'float',
    ...(input.dimensions === undefined ? {} : { dimensions: input.dimensions }),
  };
}

/** `{data: [{index, embedding}], usage}` → vectors in input order, with the usage. */
export function parseOpenAiEmbeddings(body: unknown, texts: number): EmbeddingsAnswer {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== texts)
    throw new MalformedUpstreamResponseError(`embeddings answer without ${texts} vectors`);
  const vectors: number[][] = new Array<number[]>(texts);
  for (const [position, item] of data.entries()) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const at = typeof index === 'number' ? index : position;
    if (!isVector(embedding) || at < 0 || at >= texts || vectors[at] !== undefined)
      throw new MalformedUpstreamResponseError('embeddings answer with a vector that is not a float array');
    vectors[at] = embedding;
  }
  const usage = normalizeOpenAiUsage((body as JsonObject)['usage']);
  return usage === undefined ? { vectors } : { vectors, usage };
}
