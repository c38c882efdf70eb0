import {
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
import type {
  GeminiContent,
  GeminiGenerateContentRequest,
  GeminiGenerationConfig,
  GeminiPart,
  GeminiTool,
  GeminiToolConfig,
} from './types';

const IMAGE_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
};

/** fileData needs a MIME type; for a plain URL it comes from the extension, JPEG when unknown. */
function imageTypeOfUrl(url: string): string {
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  return (extension === undefined ? undefined : IMAGE_TYPES_BY_EXTENSION[extension]) ?? 'image/jpeg';
}

function userParts(parts: ContentPart[]): GeminiPart[] {
  return parts.map((part): GeminiPart => {
    if (part.type === 'text') return { text: String(part['text'] ?? '') };
    if (part.type === 'image_url') {
      const url = (part['image_url'] as { url?: unknown } | undefined)?.url;
      if (typeof url !== 'string') throw new UntranslatableRequestError('image_url part without a url');
      const inline = parseBase64DataUrl(url);
      return inline === undefined
        ? { fileData: { mimeType: imageTypeOfUrl(url), fileUri: url } }
        : { inlineData: { mimeType: inline.mimeType, data: inline.data } };
    }
    throw new UntranslatableRequestError(`content part "${part.type}" is not supported by Gemini`);
  });
}

/** A function response must be an object: JSON object results go as they are, anything else wrapped. */
function functionResponseBody(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Not JSON: plain text result.
  }
  return { content: text };
}

function toolNamesById(messages: ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  }
  return names;
}

function contentOf(message: ChatMessage, toolNames: Map<string, string>): GeminiContent {
  switch (message.role) {
    case 'assistant': {
      const text = contentText(message.content);
      const parts: GeminiPart[] = text === '' ? [] : [{ text }];
      for (const call of message.tool_calls ?? []) {
        parts.push({
          functionCall: {
            name: call.function.name,
            args: parseToolArguments(call.function.arguments, call.function.name),
          },
        });
      }
      return { role: 'model', parts };
    }
    case 'tool': {
      const name = toolNames.get(message.tool_call_id);
      if (name === undefined) {
        throw new UntranslatableRequestError(
          `tool result "${message.tool_call_id}" answers no earlier tool call`,
        );
      }
      return {
        role: 'user',
        parts: [{ functionResponse: { name, response: functionResponseBody(contentText(message.content)) } }],
      };
    }
    default:
      return { role: 'user', parts: userParts(contentParts(message.content)) };
  }
}

function contentsOf(messages: ChatMessage[]): { system: string[]; contents: GeminiContent[] } {
  const toolNames = toolNamesById(messages);
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(contentText(message.content));
      continue;
    }
    const content = contentOf(message, toolNames);
    if (content.parts.length === 0) continue;
    // Parallel tool results (several tool messages) belong in one user turn.
    const previous = contents[contents.length - 1];
    if (previous !== undefined && previous.role === content.role) previous.parts.push(...content.parts);
    else contents.push(content);
  }
  return { system, contents };
}

function geminiTools(tools: FunctionTool[]): GeminiTool[] {
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.function.name,
        ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
        ...(tool.function.parameters === undefined ? {} : { parametersJsonSchema: tool.function.parameters }),
      })),
    },
  ];
}

function geminiToolConfig(choice: ToolChoice): GeminiToolConfig {
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
}

function generationConfig(request: ChatCompletionRequest): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.top_p !== undefined) config.topP = request.top_p;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (request.stop !== undefined && request.stop !== null) {
    config.stopSequences = typeof request.stop === 'string' ? [request.stop] : request.stop;
  }
  if (request.n !== undefined) {
    // A plain answer carries every candidate as a choice; the stream is read as one candidate's, so
    // more would be generated and charged but never shown.
    if (request.n > 1 && request.stream === true)
      throw new UntranslatableRequestError(
        `n = ${request.n} is not supported when streaming from this model: stream one choice per request, or ask without stream`,
      );
    config.candidateCount = request.n;
  }
  if (request.presence_penalty !== undefined) config.presencePenalty = request.presence_penalty;
  if (request.frequency_penalty !== undefined) config.frequencyPenalty = request.frequency_penalty;
  if (request.seed !== undefined) config.seed = request.seed;
  const format = request.response_format;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    if (format.json_schema.schema !== undefined) config.responseJsonSchema = format.json_schema.schema;
  }
  return config;
}

/** OpenAI chat request → Gemini generateContent body (the model and streaming go in the URL). */
export function toGeminiRequest(request: ChatCompletionRequest): GeminiGenerateContentRequest {
  const { system, contents } = contentsOf(request.messages);
  const result: GeminiGenerateContentRequest = { contents };
  if (system.length > 0) result.systemInstruction = { parts: [{ text: system.join('\n\n') }] };
  if (request.tools !== undefined && request.tools.length > 0) {
    result.tools = geminiTools(request.tools);
    if (request.tool_choice !== undefined) result.toolConfig = geminiToolConfig(request.tool_choice);
  }
  const config = generationConfig(request);
  if (Object.keys(config).length > 0) result.generationConfig = config;
  return result;
}
