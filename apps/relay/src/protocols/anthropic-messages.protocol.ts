import { z } from 'zod';
import {
  AnthropicClientStream,
  fromAnthropicClientRequest,
  serializeSseEvent,
  serializeSseJson,
  toAnthropicClientResponse,
  type AnthropicMessagesRequest,
  type ChatCompletionChunk,
} from '../providers';
import { renderRelayError, type RelayError } from '../errors/relay-error';
import type { ChatClientProtocol, ClientChatStream } from './chat-client-protocol';
import { SSE_CONTENT_TYPE } from './openai-chat.protocol';
import { parseClientBody } from './request-validation';

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
    ),
  isStream: (request) => request.stream === true,
  renderResponse: (response, model) => toAnthropicClientResponse(response, model),
  createStream: (request) => new AnthropicStreamOut(request.model),
};
