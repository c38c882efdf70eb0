import { completionBudget, completionText, splitIntoPieces } from '../../generation/completion-text';
import { structuredAnswerText } from '../../generation/structured-output';
import { fakeToolArguments } from '../../generation/tool-arguments';
import { chooseTool, type ToolSpec } from '../../generation/tool-choice';
import { headerValue } from '../../fake-upstream.provider';
import {
  eventFrame,
  jsonReply,
  SSE_CONTENT_TYPE,
  type Reply,
  type UpstreamRequest,
} from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString, type JsonObject } from '../../request-fields';
import { anthropicError } from './anthropic.family';
import {
  cacheUsage,
  type CacheUsage,
  fakeThinkingSignature,
  FAKE_THINKING,
  historyThinkingError,
  thinkingBudget,
} from './thinking-and-cache';

/** Text of a `system` or message `content`: a string, text blocks, and text inside tool results. */
function contentTexts(content: unknown, into: string[]): void {
  if (typeof content === 'string') {
    into.push(content);
    return;
  }
  for (const block of asArray(content) ?? []) {
    const object = asObject(block);
    if (object?.['type'] === 'text') into.push(asString(object['text']) ?? '');
    else if (object?.['type'] === 'tool_result') contentTexts(object['content'], into);
  }
}

interface PromptText {
  parts: string[];
  lastMessage: string;
}

function promptText(body: JsonObject, messages: readonly unknown[]): PromptText {
  const parts: string[] = [];
  contentTexts(body['system'], parts);
  let lastMessage = '';
  for (const message of messages) {
    const texts: string[] = [];
    contentTexts(asObject(message)?.['content'], texts);
    parts.push(...texts);
    lastMessage = texts.join('\n');
  }
  return { parts, lastMessage };
}

function toolSpecs(tools: unknown): ToolSpec[] {
  const specs: ToolSpec[] = [];
  for (const tool of asArray(tools) ?? []) {
    const object = asObject(tool);
    const name = asString(object?.['name']);
    if (name !== undefined) specs.push({ name, parameters: object?.['input_schema'] });
  }
  return specs;
}

/**
 * Anthropic's usage: input_tokens leaves out the prompt tokens written to or read from the cache, and
 * a request that set a breakpoint is told its writes split by lifetime (`cache_creation`).
 */
function usage(promptTokens: number, outputTokens: number, cache: CacheUsage): JsonObject {
  const told: JsonObject = {
    input_tokens: Math.max(0, promptTokens - cache.cacheCreation - cache.cacheRead),
    cache_creation_input_tokens: cache.cacheCreation,
    cache_read_input_tokens: cache.cacheRead,
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
  if (cache.asked)
    told['cache_creation'] = {
      ephemeral_5m_input_tokens: cache.cacheCreation - cache.cacheCreation1h,
      ephemeral_1h_input_tokens: cache.cacheCreation1h,
    };
  return told;
}

type ContentBlock = JsonObject;

/** The JSON schema of structured outputs: `output_config.format`, or the beta's `output_format`. */
function outputSchema(body: JsonObject): unknown {
  const format = asObject(asObject(body['output_config'])?.['format']) ?? asObject(body['output_format']);
  return format?.['type'] === 'json_schema' ? (format['schema'] ?? {}) : undefined;
}

interface MessageAnswer {
  message: JsonObject;
  /** The signed thinking block, when the request enabled thinking. */
  thinking: ContentBlock | undefined;
  block: ContentBlock;
  pieces: readonly string[];
  inputTokens: number;
  outputTokens: number;
  cache: CacheUsage;
  stopReason: string;
}

function answer(
  request: UpstreamRequest,
  body: JsonObject,
  messages: readonly unknown[],
  model: string,
  maxTokens: number,
  thinks: boolean,
): MessageAnswer {
  const prompt = promptText(body, messages);
  const inputTokens = request.promptTokens.count(prompt.parts);
  const cache = cacheUsage(request, body, messages);
  const toolChoice = asObject(body['tool_choice']);
  const tool = chooseTool({
    tools: toolSpecs(body['tools']),
    disabled: toolChoice?.['type'] === 'none',
    required: toolChoice?.['type'] === 'any',
    forcedName: toolChoice?.['type'] === 'tool' ? asString(toolChoice['name']) : undefined,
    lastMessageText: prompt.lastMessage,
  });

  let block: ContentBlock;
  let pieces: readonly string[];
  let outputTokens: number;
  let stopReason: string;
  if (tool !== undefined) {
    const input = fakeToolArguments(tool.parameters);
    const json = JSON.stringify(input);
    block = { type: 'tool_use', id: `toolu_fake${request.sequence}`, name: tool.name, input };
    pieces = splitIntoPieces(json, request.settings.chunks);
    outputTokens = request.promptTokens.count([json]);
    stopReason = 'tool_use';
  } else if (outputSchema(body) !== undefined) {
    // Structured output comes whole (never cut by max_tokens), so that it always parses.
    const json = structuredAnswerText({ kind: 'schema', schema: outputSchema(body) }, '');
    block = { type: 'text', text: json };
    pieces = splitIntoPieces(json, request.settings.chunks);
    outputTokens = request.promptTokens.count([json]);
    stopReason = 'end_turn';
  } else {
    const budget = completionBudget(request.settings.completionTokens, maxTokens);
    const completion = completionText(budget.tokens, request.settings.chunks);
    block = { type: 'text', text: completion.text };
    pieces = completion.chunks;
    outputTokens = completion.tokens;
    stopReason = budget.truncated ? 'max_tokens' : 'end_turn';
  }
  const thinking = thinks
    ? { type: 'thinking', thinking: FAKE_THINKING, signature: fakeThinkingSignature(FAKE_THINKING) }
    : undefined;
  if (thinking !== undefined) outputTokens += request.promptTokens.count([FAKE_THINKING]);
  const message = {
    id: `msg_fake${request.sequence}`,
    type: 'message',
    role: 'assistant',
    model,
    content: thinking === undefined ? [block] : [thinking, block],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: usage(inputTokens, outputTokens, cache),
  };
  return { message, thinking, block, pieces, inputTokens, outputTokens, cache, stopReason };
}

/** A thinking block streamed as Anthropic does: empty start, thinking_delta, signature_delta, stop. */
function thinkingFrames(thinking: ContentBlock): string {
  const delta = (value: JsonObject): string =>
    eventFrame('content_block_delta', { type: 'content_block_delta', index: 0, delta: value });
  return (
    eventFrame('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    }) +
    delta({ type: 'thinking_delta', thinking: thinking['thinking'] }) +
    delta({ type: 'signature_delta', signature: thinking['signature'] }) +
    eventFrame('content_block_stop', { type: 'content_block_stop', index: 0 })
  );
}

function streamReply(result: MessageAnswer): Reply {
  const isTool = result.block['type'] === 'tool_use';
  const startBlock = isTool ? { ...result.block, input: {} } : { type: 'text', text: '' };
  const index = result.thinking === undefined ? 0 : 1;
  const head =
    eventFrame('message_start', {
      type: 'message_start',
      message: {
        ...result.message,
        content: [],
        stop_reason: null,
        usage: usage(result.inputTokens, 1, result.cache),
      },
    }) +
    (result.thinking === undefined ? '' : thinkingFrames(result.thinking)) +
    eventFrame('content_block_start', { type: 'content_block_start', index, content_block: startBlock }) +
    eventFrame('ping', { type: 'ping' });
  const deltas = result.pieces.map((piece) =>
    eventFrame('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: isTool ? { type: 'input_json_delta', partial_json: piece } : { type: 'text_delta', text: piece },
    }),
  );
  // message_delta's usage has no service tier and no cache_creation split (message_start told it).
  const {
    service_tier: _serviceTier,
    cache_creation: _cacheCreation,
    ...deltaUsage
  } = usage(result.inputTokens, result.outputTokens, result.cache);
  const tail =
    eventFrame('content_block_stop', { type: 'content_block_stop', index }) +
    eventFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: result.stopReason, stop_sequence: null },
      usage: deltaUsage,
    }) +
    eventFrame('message_stop', { type: 'message_stop' });
  return { kind: 'stream', contentType: SSE_CONTENT_TYPE, head, deltas, tail };
}

interface ValidMessagesRequest {
  body: JsonObject;
  model: string;
  messages: readonly unknown[];
}

/** API version 2026-10-21 removed the sampling parameters: a request that sends one is refused. */
const SAMPLING_REMOVED_IN_VERSION = '2026-10-21';
const REMOVED_SAMPLING_PARAMETERS = ['temperature', 'top_p', 'top_k'] as const;

function validate(request: UpstreamRequest): ValidMessagesRequest | Reply {
  const body = asObject(request.body) ?? {};
  const model = asString(body['model']);
  if (model === undefined) return anthropicError(400, 'model: Field required');
  const messages = asArray(body['messages']);
  if (messages === undefined) return anthropicError(400, 'messages: Field required');
  const version = headerValue(request.headers, 'anthropic-version') ?? '';
  if (version >= SAMPLING_REMOVED_IN_VERSION) {
    const removed = REMOVED_SAMPLING_PARAMETERS.find((parameter) => body[parameter] !== undefined);
    if (removed !== undefined) {
      return anthropicError(
        400,
        `${removed}: not supported by anthropic-version ${version}; remove it from the request`,
      );
    }
  }
  return { body, model, messages };
}

/** POST /v1/messages (plain and streamed with Anthropic's event sequence). */
export function messages(request: UpstreamRequest): Reply {
  const valid = validate(request);
  if ('kind' in valid) return valid;
  const maxTokens = asPositiveInt(valid.body['max_tokens']);
  if (maxTokens === undefined) return anthropicError(400, 'max_tokens: Field required');
  const budget = thinkingBudget(valid.body, maxTokens);
  if (typeof budget === 'object') return budget;
  const historyError = historyThinkingError(valid.messages);
  if (historyError !== undefined) return historyError;
  const result = answer(request, valid.body, valid.messages, valid.model, maxTokens, budget !== undefined);
  return valid.body['stream'] === true ? streamReply(result) : jsonReply(200, result.message);
}

/** POST /v1/messages/count_tokens */
export function countMessageTokens(request: UpstreamRequest): Reply {
  const valid = validate(request);
  if ('kind' in valid) return valid;
  return jsonReply(200, {
    input_tokens: request.promptTokens.count(promptText(valid.body, valid.messages).parts),
  });
}

/** GET /v1/models when called with Anthropic's headers. */
export function listAnthropicModels(request: UpstreamRequest): Reply {
  const data = request.settings.models.map((id) => ({
    type: 'model',
    id,
    display_name: id,
    created_at: '2025-01-01T00:00:00Z',
  }));
  return jsonReply(200, {
    data,
    has_more: false,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
  });
}
