import { z } from 'zod';
import { type EmbeddingsAnswer, type EmbeddingsRequest, UntranslatableRequestError } from '../../canonical';
import { acceptingSnakeCase } from './request';

const embedContentSchema = acceptingSnakeCase({
  model: z.string().optional(),
  content: z.object({
    role: z.string().optional(),
    parts: z.array(z.object({ text: z.string().optional() }).passthrough()).min(1),
  }),
  // Gemini's retrieval hints; OpenAI-style upstreams have no such setting, so they are not sent on.
  taskType: z.string().optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().int().positive().optional(),
});

const batchSchema = z.object({ requests: z.array(embedContentSchema).min(1).max(2048) });

type EmbedContentRequest = z.infer<typeof embedContentSchema>;

function parsed<S extends z.ZodTypeAny>(schema: S, body: unknown, what: string): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data as z.output<S>;
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  throw new UntranslatableRequestError(`invalid ${what}: ${where}${issue?.message ?? 'invalid'}`);
}

/** The text of one content: its text parts, joined; media cannot be embedded through the relay. */
function textOf(request: EmbedContentRequest, where: string): string {
  const texts = request.content.parts.map((part) => part.text);
  if (texts.some((text) => text === undefined))
    throw new UntranslatableRequestError(`${where}content.parts: only text parts can be embedded`);
  return texts.join('\n');
}

function checkModel(request: EmbedContentRequest, model: string, where: string): void {
  if (request.model !== undefined && request.model !== `models/${model}` && request.model !== model)
    throw new UntranslatableRequestError(`${where}model must be models/${model}, as in the path`);
}

/** `:embedContent`'s body → texts to embed (one). Throws UntranslatableRequestError (400). */
export function geminiEmbedContentRequest(model: string, body: unknown): EmbeddingsRequest {
  const request = parsed(embedContentSchema, body, 'EmbedContentRequest');
  checkModel(request, model, '');
  return {
    texts: [textOf(request, '')],
    ...(request.outputDimensionality === undefined ? {} : { dimensions: request.outputDimensionality }),
  };
}

/**
 * `:batchEmbedContents`'s body → texts to embed, in order. One upstream call serves the batch, so
 * every request must ask for the same vector size.
 */
export function geminiBatchEmbedContentsRequest(model: string, body: unknown): EmbeddingsRequest {
  const { requests } = parsed(batchSchema, body, 'BatchEmbedContentsRequest');
  const sizes = new Set(requests.map((request) => request.outputDimensionality));
  if (sizes.size > 1)
    throw new UntranslatableRequestError(
      'every request of a batch must ask for the same outputDimensionality',
    );
  const texts = requests.map((request, index) => {
    checkModel(request, model, `requests.${index}.`);
    return textOf(request, `requests.${index}.`);
  });
  const dimensions = requests[0]!.outputDimensionality;
  return { texts, ...(dimensions === undefined ? {} : { dimensions }) };
}

/** EmbedContentResponse. */
export function geminiEmbedContentResponse(answer: EmbeddingsAnswer): { embedding: { values: number[] } } {
  return { embedding: { values: answer.vectors[0] ?? [] } };
}

/** BatchEmbedContentsResponse. */
export function geminiBatchEmbedContentsResponse(answer: EmbeddingsAnswer): {
  embeddings: { values: number[] }[];
} {
  return { embeddings: answer.vectors.map((values) => ({ values })) };
}
