import type { PromptCache } from './generation/prompt-cache';
import type { PromptTokenCounter } from './generation/prompt-tokens';

/** What a route answers; the server turns it into bytes, applying latency, chunk gaps and drops. */
export type Reply = JsonReply | BytesReply | StreamReply;

export interface JsonReply {
  kind: 'json';
  status: number;
  body: string;
  /** Extra headers as a flat [name, value, …] list. */
  headers?: readonly string[];
}

export interface BytesReply {
  kind: 'bytes';
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * A stream as three parts: `head` (frames before any content), `deltas` (one string per content
 * chunk: what `chunks`, `chunkMs` and `dropAfter` act on) and `tail` (closing frames).
 */
export interface StreamReply {
  kind: 'stream';
  contentType: string;
  head: string;
  deltas: readonly string[];
  tail: string;
}

export interface GenerationSettings {
  completionTokens: number;
  chunks: number;
  embeddingDimensions: number;
  models: readonly string[];
}

export interface UpstreamRequest {
  /** Parsed JSON body; undefined for bodiless requests. */
  body: unknown;
  /** Path parameters: `model` (Gemini), `deployment` (Azure). */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  settings: GenerationSettings;
  promptTokens: PromptTokenCounter;
  /** The prompt prefixes this server has cached (Anthropic's prompt caching). */
  promptCache: PromptCache;
  /** Sequence number of the request, for unique ids. */
  sequence: number;
  /** Base URL of the server, for links to assets it serves. */
  baseUrl: string;
}

export function jsonReply(status: number, value: unknown, headers?: readonly string[]): JsonReply {
  return headers === undefined
    ? { kind: 'json', status, body: JSON.stringify(value) }
    : { kind: 'json', status, body: JSON.stringify(value), headers };
}

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/** `data: …` frame as OpenAI and Gemini send them. */
export function dataFrame(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** `event: …` + `data: …` frame as Anthropic and the OpenAI Responses API send them. */
export function eventFrame(event: string, value: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(value)}\n\n`;
}
