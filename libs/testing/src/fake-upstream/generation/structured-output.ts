import { valueFittingSchema } from './schema-value';

/** What a request asks its answer to be: JSON fitting a schema, any JSON object, or free text. */
export type AnswerFormat = { kind: 'schema'; schema: unknown } | { kind: 'json_object' } | { kind: 'text' };

/**
 * The answer text for a JSON format: a value fitting the schema, or for a plain JSON mode an object
 * holding the usual completion text (so its length still follows `completionTokens`).
 */
export function structuredAnswerText(format: Exclude<AnswerFormat, { kind: 'text' }>, prose: string): string {
  return JSON.stringify(format.kind === 'schema' ? valueFittingSchema(format.schema) : { answer: prose });
}
