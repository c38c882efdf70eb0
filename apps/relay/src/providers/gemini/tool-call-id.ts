/**
 * Gemini often gives function calls no id, while OpenAI clients need one to answer the call.
 * Derived from the response id and position, so the transform stays pure and repeatable.
 */
export function geminiToolCallId(responseId: string | undefined, index: number, given?: string): string {
  if (given !== undefined && given !== '') return given;
  return `call_${responseId ?? 'gemini'}_${index}`;
}
