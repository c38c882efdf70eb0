import {
  anthropicFieldsOf,
  type AnthropicFields,
  parseBase64DataUrl,
  contentParts,
  contentText,
  type ChatCompletionRequest,
  type ChatMessage,
  type ContentPart,
  type FunctionTool,
  type ToolChoice,
  UntranslatableRequestError,
  parseToolArguments,
} from '../../canonical';
import { thinkingBeyondDefaultLimit, thinkingForEffort } from './reasoning-effort';
import { continuesToolCallWithoutItsThinking, withoutUnsignedThinking } from './unsigned-thinking';
import type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicMessageParam,
  AnthropicMessagesRequest,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolChoice,
} from './types';

/** The block with the cache_control an Anthropic client set on the part it came from, if any. */
function withCacheControl<T extends AnthropicContentBlock | AnthropicTool>(block: T, from: object): T {
  return withFieldsCacheControl(block, anthropicFieldsOf(from));
}

function withFieldsCacheControl<T extends AnthropicContentBlock | AnthropicTool>(
  block: T,
  fields: AnthropicFields | undefined,
): T {
  const cacheControl = fields?.cache_control;
  return cacheControl === undefined
    ? block
    : { ...block, cache_control: cacheControl as AnthropicCacheControl };
}

/** Anthropic requires max_tokens; OpenAI clients often leave it out. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/**
 * The max_tokens a request naming no answer limit is sent with: the default, plus the thinking budget
 * of its `reasoning_effort`. An Anthropic client's own `thinking` needs no room here: its dialect
 * requires max_tokens, which holds the budget.
 */
export function anthropicMaxTokensWithoutLimit(request: ChatCompletionRequest): number {
  return DEFAULT_ANTHROPIC_MAX_TOKENS + thinkingBeyondDefaultLimit(request);
}

function imageBlock(url: string): AnthropicContentBlock {
  const inline = parseBase64DataUrl(url);
  return inline === undefined
    ? { type: 'image', source: { type: 'url', url } }
    : { type: 'image', source: { type: 'base64', media_type: inline.mimeType, data: inline.data } };
}

function userBlocks(parts: ContentPart[]): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  for (const part of parts) {
    const fields = anthropicFieldsOf(part);
    // An Anthropic client's own block (a document): as it came.
    if (fields?.block !== undefined) blocks.push(fields.block as unknown as AnthropicContentBlock);
    else if (part.type === 'text')
      blocks.push(withFieldsCacheControl({ type: 'text', text: String(part['text'] ?? '') }, fields));
    else if (part.type === 'image_url') {
      const url = (part['image_url'] as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string') throw new UntranslatableRequestError('image_url part without a url');
      blocks.push(withFieldsCacheControl(imageBlock(url), fields));
    } else throw new UntranslatableRequestError(`content part "${part.type}" is not supported by Anthropic`);
  }
  return blocks;
}

function isInstruction(
  message: ChatMessage,
): message is Extract<ChatMessage, { role: 'system' | 'developer' }> {
  return message.role === 'system' || message.role === 'developer';
}

function messageBlocks(
  message: Exclude<ChatMessage, { role: 'system' | 'developer' }>,
): AnthropicContentBlock[] {
  switch (message.role) {
    case 'user':
      return userBlocks(contentParts(message.content));
    case 'assistant': {
      // An Anthropic client's own blocks: signed thinking must come back to Anthropic unchanged.
      const original = anthropicFieldsOf(message)?.blocks;
      if (original !== undefined)
        return withoutUnsignedThinking(original as unknown as AnthropicContentBlock[]);
      const text = contentText(message.content);
      const blocks: AnthropicContentBlock[] = text === '' ? [] : [{ type: 'text', text }];
      for (const call of message.tool_calls ?? []) {
        blocks.push({
          type: 'tool_use',
          id: call.id,
          name: call.function.name,
          input: parseToolArguments(call.function.arguments, call.function.name),
        });
      }
      return blocks;
    }
    case 'tool': {
      // An Anthropic client's tool_result holding more than text (images, documents, inner cache
      // breakpoints, is_error): as it came.
      const original = anthropicFieldsOf(message)?.block;
      if (original !== undefined) return [original as unknown as AnthropicContentBlock];
      return [
        withCacheControl(
          { type: 'tool_result', tool_use_id: message.tool_call_id, content: contentText(message.content) },
          message,
        ),
      ];
    }
  }
}

/**
 * System and developer messages become `system`; tool results become user turns of tool_result
 * blocks; consecutive turns of one role are merged, as Anthropic wants alternating roles.
 */
function splitMessages(messages: ChatMessage[]): {
  system: SystemPiece[];
  turns: AnthropicMessageParam[];
} {
  const system: SystemPiece[] = [];
  const turns: AnthropicMessageParam[] = [];
  for (const message of messages) {
    if (isInstruction(message)) {
      system.push(systemPiece(message.content));
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = messageBlocks(message);
    if (blocks.length === 0) continue;
    const previous = turns[turns.length - 1];
    if (previous !== undefined && previous.role === role)
      (previous.content as AnthropicContentBlock[]).push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return { system, turns };
}

/** An instruction's text, or its text blocks when an Anthropic client set cache breakpoints on them. */
type SystemPiece = string | AnthropicTextBlock[];

function systemPiece(content: ChatMessage['content']): SystemPiece {
  if (Array.isArray(content) && content.some((part) => anthropicFieldsOf(part) !== undefined))
    return content.map((part) =>
      withCacheControl({ type: 'text', text: String((part as { text?: unknown }).text ?? '') }, part),
    );
  return contentText(content);
}

/** `system` as a string, or as blocks when one carries a cache breakpoint. */
function anthropicSystem(pieces: SystemPiece[]): string | AnthropicTextBlock[] {
  if (pieces.every((piece) => typeof piece === 'string')) return pieces.join('\n\n');
  return pieces.flatMap((piece) =>
    typeof piece === 'string' ? [{ type: 'text' as const, text: piece }] : piece,
  );
}

function anthropicTools(tools: FunctionTool[]): AnthropicTool[] {
  return tools.map((tool) =>
    withCacheControl(
      {
        name: tool.function.name,
        ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
        input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
      },
      tool,
    ),
  );
}

function anthropicToolChoice(choice: ToolChoice, parallel: boolean | undefined): AnthropicToolChoice {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...noParallel };
  if (choice === 'required') return { type: 'any', ...noParallel };
  return { type: 'tool', name: choice.function.name, ...noParallel };
}

function stopSequences(stop: ChatCompletionRequest['stop']): string[] | undefined {
  if (stop === undefined || stop === null) return undefined;
  return typeof stop === 'string' ? [stop] : stop;
}

/** OpenAI chat request → Anthropic Messages request for the given upstream model. */
export function toAnthropicMessagesRequest(
  request: ChatCompletionRequest,
  upstreamModel: string,
): AnthropicMessagesRequest {
  // Messages has no choice count: n above 1 would come back as one choice, which a client reading
  // choices[1] does not expect.
  if (request.n !== undefined && request.n > 1)
    throw new UntranslatableRequestError(
      `n = ${request.n} is not supported by this model: it answers with one choice per request`,
    );
  const { system, turns } = splitMessages(request.messages);
  const answerLimit = request.max_completion_tokens ?? request.max_tokens;
  const result: AnthropicMessagesRequest = {
    model: upstreamModel,
    messages: turns,
    max_tokens: answerLimit ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
  };
  if (system.length > 0) result.system = anthropicSystem(system);
  const thinking = anthropicFieldsOf(request)?.thinking;
  if (thinking !== undefined) {
    if (thinking['type'] === 'disabled' || !continuesToolCallWithoutItsThinking(request.messages))
      result.thinking = thinking as AnthropicMessagesRequest['thinking'];
  } else if (request['reasoning_effort'] !== undefined) {
    const effort = thinkingForEffort(request, answerLimit, DEFAULT_ANTHROPIC_MAX_TOKENS);
    if (effort !== undefined) Object.assign(result, effort);
  }
  const stop = stopSequences(request.stop);
  if (stop !== undefined && stop.length > 0) result.stop_sequences = stop;
  if (request.stream === true) result.stream = true;
  if (request.temperature !== undefined) result.temperature = request.temperature;
  if (request.top_p !== undefined) result.top_p = request.top_p;
  if (request.tools !== undefined && request.tools.length > 0) {
    result.tools = anthropicTools(request.tools);
    if (request.tool_choice !== undefined) {
      result.tool_choice = anthropicToolChoice(request.tool_choice, request.parallel_tool_calls);
    } else if (request.parallel_tool_calls === false) {
      result.tool_choice = { type: 'auto', disable_parallel_tool_use: true };
    }
  }
  if (request.user !== undefined) result.metadata = { user_id: request.user };
  const format = request.response_format;
  // Anthropic has no schema-less JSON mode: json_object stays a plain request (say "JSON" in the prompt).
  if (format?.type === 'json_schema' && format.json_schema.schema !== undefined)
    result.output_config = { format: { type: 'json_schema', schema: format.json_schema.schema } };
  return result;
}
