import type { ApiProtocol } from '@tollgate/contracts';
import type { ChatCompletionChunk, ChatCompletionRequest, ChatCompletionResponse } from '../canonical';
import type { RelayError } from '../errors/relay-error';
import type { CallCost } from '../pricing/call-cost';

/** What the route gives a protocol besides the body: Gemini names the model and the mode in the path. */
export interface ChatRouteInput {
  body: unknown;
  /** From the path (Gemini). */
  model?: string;
  /** From the path (Gemini's `:streamGenerateContent`). */
  stream?: boolean;
  query?: Record<string, unknown>;
  /** The client's request headers (the Anthropic dialect reads `anthropic-beta`). */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/** Renders one answer stream in the client's protocol, chunk by chunk, as wire text. */
export interface ClientChatStream {
  readonly contentType: string;
  /**
   * Wire text for one canonical chunk ('' when it completes nothing yet). `cost`: what the call is
   * charged, given with the chunk that carries the usage, for dialects that report it.
   */
  push(chunk: ChatCompletionChunk, cost?: CallCost): string;
  /** Wire text that closes a complete answer. */
  end(): string;
  /** Wire text that reports a failure after the stream started, then closes it. */
  fail(error: RelayError): string;
}

/**
 * One API dialect a client may speak for chat: how its request becomes the canonical request and how
 * the canonical answer goes back to it. Adding a dialect is one more of these.
 */
export interface ChatClientProtocol {
  readonly protocol: ApiProtocol;
  /** Throws UntranslatableRequestError or RelayError (400) on a body the dialect does not allow. */
  toChatRequest(input: ChatRouteInput): ChatCompletionRequest;
  /** Whether the client wants its answer streamed. */
  isStream(request: ChatCompletionRequest, input: ChatRouteInput): boolean;
  renderResponse(response: ChatCompletionResponse, requestedModel: string): unknown;
  createStream(request: ChatCompletionRequest, input: ChatRouteInput): ClientChatStream;
}
