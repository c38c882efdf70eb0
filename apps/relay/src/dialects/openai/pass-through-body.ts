import { z } from 'zod';
import type { JsonObject } from '../../canonical';
import { parseClientBody } from '../request-validation';

/**
 * The body of OpenAI's endpoints besides chat (completions, embeddings, responses, images, speech,
 * moderations, rerank): any JSON object that names a model; the rest goes upstream as it came.
 */
const passThroughBody = z.object({ model: z.string().min(1).max(128) }).passthrough();

export type PassThroughBody = JsonObject & { model: string };

/** Throws RelayError (400) for a body without a model name. */
export function parsePassThroughBody(body: unknown): PassThroughBody {
  return parseClientBody(passThroughBody, body) as PassThroughBody;
}
