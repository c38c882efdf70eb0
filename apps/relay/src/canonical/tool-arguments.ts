import { UntranslatableRequestError } from './translation-errors';

/** Tool call arguments arrive as a JSON string in OpenAI's dialect and as an object elsewhere. */
export function parseToolArguments(argumentsJson: string, toolName: string): Record<string, unknown> {
  if (argumentsJson.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentsJson);
  } catch {
    throw new UntranslatableRequestError(`arguments of the call to tool "${toolName}" are not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UntranslatableRequestError(`arguments of the call to tool "${toolName}" are not a JSON object`);
  }
  return parsed as Record<string, unknown>;
}
