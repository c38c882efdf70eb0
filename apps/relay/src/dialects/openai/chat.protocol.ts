import { z } from 'zod';
import { OPENAI_STREAM_DONE, serializeSseEvent, serializeSseJson, SSE_CONTENT_TYPE } from '../../sse/sse';
import { upstreamDataOf, type ChatCompletionChunk, type ChatCompletionRequest } from '../../canonical';
import { renderRelayError } from '../../errors/relay-error';
import { addUsageCost, withUsageCost, type CallCost } from '../../pricing/call-cost';
import type { ChatClientProtocol, ClientChatStream } from '../chat-client-protocol';
import { parseClientBody } from '../request-validation';

const modelName = z.string().min(1).max(128);

/** The most models one call may name in `models` (OpenRouter's fallbacks). */
const MAX_FALLBACK_MODELS = 8;

const chatRequestSchema = z
  .object({
    model: modelName.optional(),
    /** OpenRouter's fallbacks: tried in order after `model` when it cannot serve the call. */
    models: z.array(modelName).min(1).max(MAX_FALLBACK_MODELS).optional(),
    messages: z.array(z.object({ role: z.string() }).passthrough()).min(1),
    stream: z.boolean().optional(),
    max_tokens: z.number().int().positive().optional(),
    max_completion_tokens: z.number().int().positive().optional(),
  })
  .passthrough()
  .refine((body) => body.model !== undefined || body.models !== undefined, {
    message: 'Required',
    path: ['model'],
  })
  // Without `model`, the first of `models` is the model asked for.
  .transform((body) => ({ ...body, model: body.model ?? body.models![0]! }));

/**
 * A chunk an OpenAI-style channel sent goes out as the bytes it came in (no second serialisation per
 * chunk); one from another family, or data spread over several lines, is serialised.
 */
function asReceived(chunk: ChatCompletionChunk, cost: CallCost | undefined): string {
  const data = upstreamDataOf(chunk);
  const usageChunk = cost !== undefined && chunk.usage !== undefined && chunk.usage !== null;
  if (data === undefined || data.includes('\n') || data.includes('\r'))
    return serializeSseJson(usageChunk ? addUsageCost(chunk, cost) : chunk);
  const withCost = usageChunk ? withUsageCost(data, cost) : undefined;
  return `data: ${withCost ?? data}\n\n`;
}

/**
 * The usage chunk is forced upstream (the relay bills from it); a client that did not ask for it gets
 * the stream it would get from OpenAI: no usage chunk, no usage field.
 */
class OpenAiChatStreamOut implements ClientChatStream {
  readonly contentType = SSE_CONTENT_TYPE;

  constructor(private readonly includeUsage: boolean) {}

  push(chunk: ChatCompletionChunk, cost?: CallCost): string {
    if (this.includeUsage) return asReceived(chunk, cost);
    if (chunk.choices.length === 0) return '';
    if (!('usage' in chunk)) return asReceived(chunk, undefined);
    const { usage: _usage, ...rest } = chunk;
    return serializeSseJson(rest);
  }

  end(): string {
    return serializeSseEvent({ data: OPENAI_STREAM_DONE });
  }

  fail(error: Parameters<ClientChatStream['fail']>[0]): string {
    return serializeSseJson(renderRelayError('openai', error).body) + this.end();
  }
}

export const openAiChatProtocol: ChatClientProtocol = {
  protocol: 'openai',
  toChatRequest: (input) => parseClientBody(chatRequestSchema, input.body) as ChatCompletionRequest,
  isStream: (request) => request.stream === true,
  renderResponse: (response) => response,
  createStream: (request) => new OpenAiChatStreamOut(request.stream_options?.include_usage === true),
};
