import { z } from 'zod';
import { AnthropicClientStream } from './stream';
import { fromAnthropicClientRequest } from './request';
import { toAnthropicClientResponse } from './response';
import type { AnthropicMessagesRequest } from '../../providers/anthropic/types';
import { serializeSseEvent, serializeSseJson, SSE_CONTENT_TYPE } from '../../sse/sse';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../../canonical';
import { renderRelayError, type RelayError } from '../../errors/relay-error';
import type { ChatClientProtocol, ChatRouteInput, ClientChatStream } from '../chat-client-protocol';
import { parseClientBody } from '../request-validation';

const messagesRequestSchema = z
  .object({
    model: z.string().min(1).max(128),
    max_tokens: z.number().int().positive(),
    messages: z
      .array(
        z
          .object({
            role: z.enum(['user', 'assistant']),
            content: z.union([z.string(), z.array(z.object({ type: z.string() }).passthrough())]),
          })
          .passthrough(),
      )
      .min(1),
    stream: z.boolean().optional(),
  })
  .passthrough();

/**
 * The client's `anthropic-beta` header (beta names, comma-separated), for an Anthropic channel: Claude
 * Code and the SDKs' `betas` send it for interleaved thinking, the 1M context window and the like.
 */
function betaHeader(headers: ChatRouteInput['headers']): string | undefined {
  const value = headers?.['anthropic-beta'];
  if (value === undefined) return undefined;
  const beta = typeof value === 'string' ? value : value.join(',');
  return beta === '' ? undefined : beta;
}

/** `count_tokens` takes a Messages request without max_tokens (and refuses stream). */
const countTokensRequestSchema = messagesRequestSchema.omit({ max_tokens: true, stream: true });

/** `POST /v1/messages/count_tokens`'s body → the canonical request whose prompt is counted. */
export function anthropicCountTokensRequest(
  body: unknown,
  headers?: ChatRouteInput['headers'],
): ChatCompletionRequest {
  const parsed = parseClientBody(countTokensRequestSchema, body) as unknown as AnthropicMessagesRequest;
  const { max_tokens: _none, ...request } = fromAnthropicClientRequest(parsed, betaHeader(headers));
  return request;
}

class AnthropicStreamOut implements ClientChatStream {
  readonly contentType = SSE_CONTENT_TYPE;
  private readonly writer: AnthropicClientStream;

  constructor(model: string) {
    this.writer = new AnthropicClientStream(model);
  }

  push(chunk: ChatCompletionChunk): string {
    return this.writer.push(chunk).map(serializeSseEvent).join('');
  }

  end(): string {
    return this.writer.end().map(serializeSseEvent).join('');
  }

  fail(error: RelayError): string {
    return serializeSseJson(renderRelayError('anthropic', error).body, 'error');
  }
}

/** `POST /v1/messages`, as Claude Code and the Anthropic SDK call it. */
export const anthropicMessagesProtocol: ChatClientProtocol = {
  protocol: 'anthropic',
  toChatRequest: (input) =>
    fromAnthropicClientRequest(
      parseClientBody(messagesRequestSchema, input.body) as unknown as AnthropicMessagesRequest,
      betaHeader(input.headers),
    ),
  isStream: (request) => request.stream === true,
  renderResponse: (response, model) => toAnthropicClientResponse(response, model),
  createStream: (request) => new AnthropicStreamOut(request.model),
};
