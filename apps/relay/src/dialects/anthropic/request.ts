import {
  toBase64DataUrl,
  withAnthropicFields,
  type AnthropicFields,
  type JsonObject,
  type ChatCompletionRequest,
  type ChatMessage,
  type ContentPart,
  type ResponseFormat,
  type ToolChoice,
  UntranslatableRequestError,
} from '../../canonical';
import type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicDocumentBlock,
  AnthropicMessagesRequest,
  AnthropicTextBlock,
  AnthropicToolChoice,
  AnthropicToolResultBlock,
} from '../../providers/anthropic/types';

/** What a request holds that only an Anthropic channel takes, found while its turns are converted. */
interface AnthropicOnly {
  documents: boolean;
}

/** The part, tagged with the block's cache_control for an Anthropic upstream when it has one. */
function cached<T extends object>(part: T, cacheControl: AnthropicCacheControl | null | undefined): T {
  return cacheControl === undefined || cacheControl === null
    ? part
    : withAnthropicFields(part, { cache_control: cacheControl });
}

function textOf(content: string | AnthropicContentBlock[] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function imagePart(block: Extract<AnthropicContentBlock, { type: 'image' }>): ContentPart {
  const url =
    block.source.type === 'base64'
      ? toBase64DataUrl({ mimeType: block.source.media_type, data: block.source.data })
      : block.source.url;
  return cached({ type: 'image_url', image_url: { url } }, block.cache_control);
}

/**
 * A document's text when it is text (a text source, or a content source of text blocks), with its
 * title and context, which Anthropic shows the model too; undefined for a PDF or a file.
 */
function documentText(block: AnthropicDocumentBlock): string | undefined {
  const source = block.source;
  let body: string | undefined;
  if (source.type === 'text') body = source.data;
  else if (source.type === 'content') {
    if (typeof source.content === 'string') body = source.content;
    else if (source.content.every((inner) => inner.type === 'text'))
      body = (source.content as AnthropicTextBlock[]).map((inner) => inner.text).join('\n');
  }
  if (body === undefined) return undefined;
  return [block.title, block.context, body]
    .filter((piece) => typeof piece === 'string' && piece !== '')
    .join('\n\n');
}

/**
 * A document as a content part: its text for any channel when it has one, else a part only an Anthropic
 * channel takes. Either way an Anthropic channel gets the block as it came (citations, cache_control).
 */
function documentPart(block: AnthropicDocumentBlock, only: AnthropicOnly): ContentPart {
  const fields = { block: block as unknown as JsonObject };
  const text = documentText(block);
  if (text !== undefined) return withAnthropicFields({ type: 'text', text }, fields);
  only.documents = true;
  return withAnthropicFields({ type: 'document' }, fields);
}

/** A tool result whose content an Anthropic channel must get as it came, not flattened to text. */
function keepsToolResult(block: AnthropicToolResultBlock): boolean {
  if (block.is_error === true) return true;
  const content = block.content;
  return (
    Array.isArray(content) &&
    content.some(
      (inner) => inner.type !== 'text' || (inner.cache_control !== undefined && inner.cache_control !== null),
    )
  );
}

/**
 * A tool result as a tool message of its text. One holding images, documents, inner cache breakpoints
 * or is_error keeps its block for an Anthropic channel; other channels get the text (a text document's
 * included), and refuse a PDF.
 */
function toolMessage(block: AnthropicToolResultBlock, only: AnthropicOnly): ChatMessage {
  const content = block.content;
  if (!keepsToolResult(block)) {
    const text = typeof content === 'string' ? content : textOf(content);
    return cached({ role: 'tool', tool_call_id: block.tool_use_id, content: text }, block.cache_control);
  }
  let text = typeof content === 'string' ? content : '';
  if (Array.isArray(content)) {
    for (const inner of content) {
      if (inner.type === 'text') text += inner.text;
      else if (inner.type === 'document') {
        const document = documentText(inner);
        if (document === undefined) only.documents = true;
        else text += document;
      }
    }
  }
  return withAnthropicFields(
    { role: 'tool', tool_call_id: block.tool_use_id, content: text },
    { block: block as unknown as JsonObject },
  );
}

/** A user turn: tool results become tool messages first, the rest one user message. */
function userMessages(content: string | AnthropicContentBlock[], only: AnthropicOnly): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const messages: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') messages.push(toolMessage(block, only));
    else if (block.type === 'text')
      parts.push(cached({ type: 'text', text: block.text }, block.cache_control));
    else if (block.type === 'image') parts.push(imagePart(block));
    else if (block.type === 'document') parts.push(documentPart(block, only));
    else throw new UntranslatableRequestError(`a user turn cannot hold a ${block.type} block`);
  }
  if (parts.length > 0) messages.push({ role: 'user', content: parts });
  return messages;
}

/** Blocks an Anthropic upstream must get back as they were: signed thinking, and cache breakpoints. */
function keepsAnthropicBlocks(content: AnthropicContentBlock[]): boolean {
  return content.some(
    (block) =>
      block.type === 'thinking' ||
      block.type === 'redacted_thinking' ||
      ('cache_control' in block && block.cache_control !== undefined && block.cache_control !== null),
  );
}

function assistantMessage(content: string | AnthropicContentBlock[]): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  const message = assistantFromBlocks(content);
  return keepsAnthropicBlocks(content)
    ? withAnthropicFields(message, { blocks: content as unknown as JsonObject[] })
    : message;
}

function assistantFromBlocks(content: AnthropicContentBlock[]): ChatMessage {
  const toolCalls = content
    .filter(
      (block): block is Extract<AnthropicContentBlock, { type: 'tool_use' }> => block.type === 'tool_use',
    )
    .map((block) => ({
      id: block.id,
      type: 'function' as const,
      function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
    }));
  const text = textOf(content);
  return {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function toolChoice(choice: AnthropicToolChoice): ToolChoice {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

/** Structured outputs (`output_config.format`, or the beta's `output_format`) → `response_format`. */
function responseFormat(request: AnthropicMessagesRequest): ResponseFormat | undefined {
  const format = request.output_config?.format ?? request.output_format;
  if (format === undefined || format === null) return undefined;
  if (format.type !== 'json_schema' || typeof format.schema !== 'object' || format.schema === null)
    throw new UntranslatableRequestError('output_config.format must be {type: "json_schema", schema}');
  return { type: 'json_schema', json_schema: { name: 'response', schema: format.schema } };
}

/** `system` as one system message; its blocks stay parts when any is a cache breakpoint. */
function systemMessage(system: string | AnthropicTextBlock[] | undefined): ChatMessage | undefined {
  if (Array.isArray(system) && system.some((block) => block.cache_control != null)) {
    return {
      role: 'system',
      content: system.map((block) => cached({ type: 'text', text: block.text }, block.cache_control)),
    };
  }
  const text = typeof system === 'string' ? system : textOf(system);
  return text === '' ? undefined : { role: 'system', content: text };
}

/** Anthropic Messages request (from `/v1/messages` clients) → canonical OpenAI chat request. */
export function fromAnthropicClientRequest(
  request: AnthropicMessagesRequest,
  beta?: string,
): ChatCompletionRequest {
  const messages: ChatMessage[] = [];
  const only: AnthropicOnly = { documents: false };
  const system = systemMessage(request.system);
  if (system !== undefined) messages.push(system);
  for (const message of request.messages) {
    if (message.role === 'user') messages.push(...userMessages(message.content, only));
    else messages.push(assistantMessage(message.content));
  }
  const result: ChatCompletionRequest = { model: request.model, messages, max_tokens: request.max_tokens };
  if (request.stream === true) {
    result.stream = true;
    result.stream_options = { include_usage: true };
  }
  if (request.temperature !== undefined) result.temperature = request.temperature;
  if (request.top_p !== undefined) result.top_p = request.top_p;
  if (request.stop_sequences !== undefined && request.stop_sequences.length > 0)
    result.stop = request.stop_sequences;
  if (request.metadata?.user_id !== undefined) result.user = request.metadata.user_id;
  const format = responseFormat(request);
  if (format !== undefined) result.response_format = format;
  if (request.tools !== undefined && request.tools.length > 0) {
    result.tools = request.tools.map((tool) =>
      cached(
        {
          type: 'function' as const,
          function: {
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            parameters: tool.input_schema,
          },
        },
        tool.cache_control,
      ),
    );
    if (request.tool_choice !== undefined) {
      result.tool_choice = toolChoice(request.tool_choice);
      if (
        'disable_parallel_tool_use' in request.tool_choice &&
        request.tool_choice.disable_parallel_tool_use === true
      ) {
        result.parallel_tool_calls = false;
      }
    }
  }
  const hasThinking = request.thinking !== undefined && request.thinking !== null;
  if (hasThinking || beta !== undefined || only.documents) {
    const fields: AnthropicFields = {};
    if (hasThinking) fields.thinking = request.thinking!;
    if (beta !== undefined) fields.beta = beta;
    if (only.documents) fields.anthropicOnly = 'documents';
    withAnthropicFields(result, fields);
  }
  return result;
}
