import { objectFittingSchema } from './schema-value';

/**
 * Deterministic arguments for a function call, shaped by the function's JSON-schema parameters
 * (Gemini's upper-case types too) so that a client validating them gets a well-typed object.
 */
export function fakeToolArguments(parameters: unknown): Record<string, unknown> {
  return objectFittingSchema(parameters);
}
