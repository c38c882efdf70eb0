import type { ChatCompletionChunk } from './chat';

/** The data line each chunk was parsed from; chunks are never changed after parsing. */
const UPSTREAM_DATA = new WeakMap<ChatCompletionChunk, string>();

/** Called by a provider whose upstream sends canonical chunks as they are (OpenAI-style). */
export function rememberUpstreamData(chunk: ChatCompletionChunk, data: string): void {
  UPSTREAM_DATA.set(chunk, data);
}

/**
 * The exact JSON text an OpenAI-style upstream sent for this chunk, so that a client speaking the same
 * dialect can be sent those bytes instead of a re-serialised copy. Undefined for other chunks.
 */
export function upstreamDataOf(chunk: ChatCompletionChunk): string | undefined {
  return UPSTREAM_DATA.get(chunk);
}
