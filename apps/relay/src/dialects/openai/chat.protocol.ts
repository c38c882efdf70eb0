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

export const chatRequestSchema = z
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

/** What OpenAI ends every chunk of a stream asked for usage with, until the usage chunk itself. */
const NULL_USAGE_MEMBER = ',"usage":null}';

/**
 * A chunk without its `usage` member. The upstream's own bytes with their last member cut off when
 * that member is a plain `"usage":null` and the only one named usage (no second serialisation, and the
 * bytes stay the upstream's); serialised again otherwise.
 */
function withoutUsage(chunk: ChatCompletionChunk): string {
  const data = chunk.usage === null ? upstreamDataOf(chunk) : undefined;
  if (
    data !== undefined &&
    data.endsWith(NULL_USAGE_MEMBER) &&
    data.indexOf('"usage":') === data.length - NULL_USAGE_MEMBER.length + 1 &&
    !data.includes('\n') &&
    !data.includes('\r')
  )
    return `data: ${data.slice(0, -NULL_USAGE_MEMBER.length)}}\n\n`;
  const { usage: _usage, ...rest } = chunk;
  return serializeSseJson(rest);
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
    return withoutUsage(chunk);
  }

  end(): string {
    return serializeSseEvent({ data: OPENAI_STREAM_DONE });
  }

  fail(error: Parameters<ClientChatStream['fail']>[0]): string {
    return serializeSseJson(renderRelayError('openai', error).body) + this.end();
  }
}

type JsonObject = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isAbsentOrPositiveInteger = (value: unknown): boolean =>
  value === undefined || (typeof value === 'number' && Number.isInteger(value) && value > 0);

/** chatRequestSchema's own keys, in its order: zod puts them first in what it returns. */
const SCHEMA_KEYS = ['model', 'models', 'messages', 'stream', 'max_tokens', 'max_completion_tokens'];

/** An object as zod returns it from a passthrough schema: the schema's keys first, then the others. */
function inSchemaOrder(object: JsonObject, schemaKeys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of schemaKeys) if (Object.hasOwn(object, key)) out[key] = object[key];
  for (const key of Object.keys(object)) if (!Object.hasOwn(out, key)) out[key] = object[key];
  return out;
}

const MESSAGE_KEYS = ['role'];

/**
 * What chatRequestSchema gives for a body that plainly fits it (a model, messages with roles, the
 * flags it checks well-formed, no `models`), without zod, which the profile showed costing about 2 %
 * of relay's CPU per call; undefined for anything else, which the schema parses and, when it must,
 * refuses in its own words. chat.protocol.spec checks both give the same request.
 */
export function plainChatRequest(body: unknown): ChatCompletionRequest | undefined {
  if (!isJsonObject(body) || body.models !== undefined) return undefined;
  const { model, messages, stream } = body;
  if (typeof model !== 'string' || model.length < 1 || model.length > 128) return undefined;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  if (stream !== undefined && typeof stream !== 'boolean') return undefined;
  if (!isAbsentOrPositiveInteger(body.max_tokens) || !isAbsentOrPositiveInteger(body.max_completion_tokens))
    return undefined;
  const copied: JsonObject[] = [];
  for (const message of messages) {
    if (!isJsonObject(message) || typeof message.role !== 'string') return undefined;
    copied.push(inSchemaOrder(message, MESSAGE_KEYS));
  }
  const request = inSchemaOrder(body, SCHEMA_KEYS);
  request.messages = copied;
  return request as unknown as ChatCompletionRequest;
}

export const openAiChatProtocol: ChatClientProtocol = {
  protocol: 'openai',
  toChatRequest: (input) =>
    plainChatRequest(input.body) ?? (parseClientBody(chatRequestSchema, input.body) as ChatCompletionRequest),
  isStream: (request) => request.stream === true,
  renderResponse: (response) => response,
  createStream: (request) => new OpenAiChatStreamOut(request.stream_options?.include_usage === true),
};
