import { z } from 'zod';
import {
  toBase64DataUrl,
  type ChatCompletionRequest,
  type ChatMessage,
  type ContentPart,
  type FunctionTool,
  type JsonObject,
  type ResponseFormat,
  type ToolCall,
  type ToolChoice,
  UntranslatableRequestError,
} from '../../canonical';

/**
 * Gemini's REST API reads protobuf JSON, which accepts every field in lowerCamelCase or in its
 * original snake_case (Google's own curl samples use both). Only the keys of the object the shape
 * describes are renamed: property names inside schemas, arguments and results stay as sent.
 */
function snakeCaseAliases(shape: z.ZodRawShape): (value: unknown) => unknown {
  const aliases = Object.keys(shape)
    .map((camel) => [camel, camel.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] as const)
    .filter(([camel, snake]) => camel !== snake);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    if (!aliases.some(([, snake]) => snake in record)) return value;
    const renamed: Record<string, unknown> = { ...record };
    for (const [camel, snake] of aliases) {
      if (renamed[camel] === undefined && renamed[snake] !== undefined) renamed[camel] = renamed[snake];
      delete renamed[snake];
    }
    return renamed;
  };
}

export function acceptingSnakeCase<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.preprocess(snakeCaseAliases(shape), z.object(shape));
}

const jsonObject = z.record(z.unknown());

const partSchema = acceptingSnakeCase({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  inlineData: acceptingSnakeCase({ mimeType: z.string(), data: z.string() }).optional(),
  fileData: acceptingSnakeCase({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
  functionCall: z
    .object({ name: z.string().min(1), args: jsonObject.optional(), id: z.string().optional() })
    .optional(),
  functionResponse: z
    .object({ name: z.string().min(1), response: jsonObject, id: z.string().optional() })
    .optional(),
  // Parts the canonical form cannot carry: kept only to refuse them by name.
  executableCode: z.unknown().optional(),
  codeExecutionResult: z.unknown().optional(),
});

const contentSchema = z.object({
  // "function" is the role older Gemini samples give to turns of function responses.
  role: z.enum(['user', 'model', 'function']).optional(),
  parts: z.array(partSchema),
});

const functionDeclarationSchema = acceptingSnakeCase({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: jsonObject.optional(),
  parametersJsonSchema: jsonObject.optional(),
});

const toolShape = { functionDeclarations: z.array(functionDeclarationSchema).optional() };
// Unknown keys are kept: they are Gemini's built-in tools (googleSearch, codeExecution, …), refused by name.
const toolSchema = z.preprocess(snakeCaseAliases(toolShape), z.object(toolShape).passthrough());

const toolConfigSchema = acceptingSnakeCase({
  functionCallingConfig: acceptingSnakeCase({
    mode: z.enum(['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED']).optional(),
    allowedFunctionNames: z.array(z.string()).optional(),
  }).optional(),
});

const generationConfigSchema = acceptingSnakeCase({
  temperature: z.number().optional(),
  topP: z.number().optional(),
  topK: z.number().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  stopSequences: z.array(z.string()).optional(),
  candidateCount: z.number().int().optional(),
  presencePenalty: z.number().optional(),
  frequencyPenalty: z.number().optional(),
  seed: z.number().int().optional(),
  responseMimeType: z.string().optional(),
  responseSchema: jsonObject.optional(),
  responseJsonSchema: z.unknown().optional(),
});

const generateContentRequestSchema = acceptingSnakeCase({
  contents: z.array(contentSchema).min(1, 'contents must hold at least one turn'),
  systemInstruction: z.object({ parts: z.array(partSchema) }).optional(),
  tools: z.array(toolSchema).optional(),
  toolConfig: toolConfigSchema.optional(),
  generationConfig: generationConfigSchema.optional(),
  cachedContent: z.string().optional(),
  // safetySettings and labels have no equivalent upstream of the canonical form and are ignored.
});

type GeminiClientRequest = z.infer<typeof generateContentRequestSchema>;
type GeminiClientContent = z.infer<typeof contentSchema>;
type GeminiClientPart = z.infer<typeof partSchema>;
type GeminiClientTool = z.infer<typeof toolSchema>;
type GeminiClientGenerationConfig = z.infer<typeof generationConfigSchema>;

const FIRST_ISSUES_REPORTED = 3;

function parseRequest(body: unknown): GeminiClientRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UntranslatableRequestError('the request body must be a JSON object (GenerateContentRequest)');
  }
  const parsed = generateContentRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, FIRST_ISSUES_REPORTED)
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  throw new UntranslatableRequestError(`invalid GenerateContentRequest: ${issues.join('; ')}`);
}

// ---- schemas ------------------------------------------------------------------------------------

const INTEGER_KEYWORDS = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Gemini's `Schema` (an OpenAPI 3.0 subset: upper-case types, `nullable`, int64 bounds as strings)
 * → JSON Schema, which every other upstream reads.
 */
export function jsonSchemaOfGeminiSchema(schema: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type') {
      if (typeof value === 'string' && value !== 'TYPE_UNSPECIFIED') result['type'] = value.toLowerCase();
    } else if (key === 'properties' && isJsonObject(value)) {
      result['properties'] = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [
          name,
          isJsonObject(property) ? jsonSchemaOfGeminiSchema(property) : property,
        ]),
      );
    } else if (key === 'items' && isJsonObject(value)) {
      result['items'] = jsonSchemaOfGeminiSchema(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      result['anyOf'] = value.map((option: unknown) =>
        isJsonObject(option) ? jsonSchemaOfGeminiSchema(option) : option,
      );
    } else if (INTEGER_KEYWORDS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) {
      result[key] = Number(value);
    } else if (key !== 'nullable' && key !== 'propertyOrdering') {
      result[key] = value;
    }
  }
  if (schema['nullable'] === true) {
    if (typeof result['type'] === 'string') result['type'] = [result['type'], 'null'];
    else if (Array.isArray(result['anyOf'])) result['anyOf'] = [...result['anyOf'], { type: 'null' }];
  }
  return result;
}

// ---- contents -----------------------------------------------------------------------------------

interface PendingCall {
  id: string;
  name: string;
}

/**
 * Gemini pairs calls and responses by name (and by id when the model gave one), OpenAI by id. Calls
 * without an id get one from their position in the conversation, so a client that sends the same
 * history again gets the same ids.
 */
class ToolCallLedger {
  private callCount = 0;
  private readonly pending: PendingCall[] = [];

  register(name: string, givenId: string | undefined): string {
    const id = givenId !== undefined && givenId !== '' ? givenId : `call_gemini_${this.callCount}`;
    this.callCount += 1;
    this.pending.push({ id, name });
    return id;
  }

  answer(name: string, givenId: string | undefined): string {
    let index = givenId === undefined ? -1 : this.pending.findIndex((call) => call.id === givenId);
    if (index === -1) index = this.pending.findIndex((call) => call.name === name);
    if (index === -1) {
      throw new UntranslatableRequestError(`functionResponse "${name}" answers no earlier functionCall`);
    }
    const [call] = this.pending.splice(index, 1);
    return call!.id;
  }
}

function mediaPart(mimeType: string | undefined, url: string, kind: string): ContentPart {
  if (mimeType !== undefined && !mimeType.startsWith('image/')) {
    throw new UntranslatableRequestError(`${kind} of type ${mimeType} is not supported: only images are`);
  }
  return { type: 'image_url', image_url: { url } };
}

function unsupportedPart(part: GeminiClientPart, where: string): never {
  const kind =
    part.executableCode !== undefined
      ? 'executableCode'
      : part.codeExecutionResult !== undefined
        ? 'codeExecutionResult'
        : undefined;
  throw new UntranslatableRequestError(
    kind === undefined ? `${where} holds an empty or unknown part` : `${kind} parts are not supported`,
  );
}

/** A user turn: function responses become tool messages first, the rest one user message. */
function userMessages(content: GeminiClientContent, calls: ToolCallLedger): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  for (const part of content.parts) {
    if (part.functionResponse !== undefined) {
      const { name, response, id } = part.functionResponse;
      messages.push({
        role: 'tool',
        tool_call_id: calls.answer(name, id),
        content: JSON.stringify(response),
      });
    } else if (part.inlineData !== undefined) {
      parts.push(mediaPart(part.inlineData.mimeType, toBase64DataUrl(part.inlineData), 'inlineData'));
    } else if (part.fileData !== undefined) {
      parts.push(mediaPart(part.fileData.mimeType, part.fileData.fileUri, 'fileData'));
    } else if (part.text !== undefined) {
      if (part.text !== '') parts.push({ type: 'text', text: part.text });
    } else if (part.functionCall !== undefined) {
      throw new UntranslatableRequestError('functionCall parts belong in model turns');
    } else {
      unsupportedPart(part, 'a user turn');
    }
  }
  if (parts.length > 0) messages.push({ role: 'user', content: parts });
  return messages;
}

/** A model turn: its text (thought summaries left out, as Gemini itself ignores them) and calls. */
function modelMessage(content: GeminiClientContent, calls: ToolCallLedger): ChatMessage | undefined {
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const part of content.parts) {
    if (part.functionCall !== undefined) {
      const { name, args, id } = part.functionCall;
      toolCalls.push({
        id: calls.register(name, id),
        type: 'function',
        function: { name, arguments: JSON.stringify(args ?? {}) },
      });
    } else if (part.text !== undefined) {
      if (part.thought !== true) text += part.text;
    } else if (
      part.inlineData !== undefined ||
      part.fileData !== undefined ||
      part.functionResponse !== undefined
    ) {
      throw new UntranslatableRequestError('model turns can hold only text and functionCall parts');
    } else {
      unsupportedPart(part, 'a model turn');
    }
  }
  if (text === '' && toolCalls.length === 0) return undefined;
  return {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function systemText(instruction: { parts: GeminiClientPart[] }): string {
  return instruction.parts
    .map((part) => {
      if (part.text === undefined)
        throw new UntranslatableRequestError('systemInstruction can hold only text parts');
      return part.text;
    })
    .filter((text) => text !== '')
    .join('\n');
}

function messagesOf(request: GeminiClientRequest): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const system = request.systemInstruction === undefined ? '' : systemText(request.systemInstruction);
  if (system !== '') messages.push({ role: 'system', content: system });
  const calls = new ToolCallLedger();
  for (const content of request.contents) {
    if (content.role === 'model') {
      const message = modelMessage(content, calls);
      if (message !== undefined) messages.push(message);
    } else {
      messages.push(...userMessages(content, calls));
    }
  }
  return messages;
}

// ---- tools --------------------------------------------------------------------------------------

function functionTools(tools: GeminiClientTool[]): FunctionTool[] {
  const result: FunctionTool[] = [];
  for (const tool of tools) {
    const builtIn = Object.keys(tool).find(
      (key) => key !== 'functionDeclarations' && tool[key] !== undefined,
    );
    if (builtIn !== undefined) {
      throw new UntranslatableRequestError(
        `the ${builtIn} tool is not supported: only functionDeclarations are`,
      );
    }
    for (const declaration of tool.functionDeclarations ?? []) {
      const parameters =
        declaration.parametersJsonSchema ??
        (declaration.parameters === undefined ? undefined : jsonSchemaOfGeminiSchema(declaration.parameters));
      result.push({
        type: 'function',
        function: {
          name: declaration.name,
          ...(declaration.description === undefined ? {} : { description: declaration.description }),
          ...(parameters === undefined ? {} : { parameters }),
        },
      });
    }
  }
  return result;
}

/**
 * ANY with allowed names narrows the functions the model may call: one name is OpenAI's named
 * choice, several keep only those functions and require a call.
 */
function applyToolConfig(
  tools: FunctionTool[],
  config: GeminiClientRequest['toolConfig'],
): { tools: FunctionTool[]; toolChoice?: ToolChoice } {
  const calling = config?.functionCallingConfig;
  const allowed = calling?.allowedFunctionNames ?? [];
  const unknown = allowed.find((name) => !tools.some((tool) => tool.function.name === name));
  if (unknown !== undefined) {
    throw new UntranslatableRequestError(
      `allowedFunctionNames names "${unknown}", which no functionDeclaration declares`,
    );
  }
  switch (calling?.mode) {
    case undefined:
    case 'MODE_UNSPECIFIED':
      return { tools };
    case 'NONE':
      return { tools, toolChoice: 'none' };
    case 'AUTO':
    case 'VALIDATED':
      return { tools, toolChoice: 'auto' };
    case 'ANY':
      if (allowed.length === 1)
        return { tools, toolChoice: { type: 'function', function: { name: allowed[0]! } } };
      if (allowed.length > 1) {
        return {
          tools: tools.filter((tool) => allowed.includes(tool.function.name)),
          toolChoice: 'required',
        };
      }
      return { tools, toolChoice: 'required' };
  }
}

// ---- generation settings ------------------------------------------------------------------------

function responseFormat(config: GeminiClientGenerationConfig): ResponseFormat | undefined {
  const mimeType = config.responseMimeType;
  if (mimeType !== undefined && mimeType !== 'text/plain' && mimeType !== 'application/json') {
    throw new UntranslatableRequestError(
      `responseMimeType ${mimeType} is not supported: use application/json or text/plain`,
    );
  }
  if (isJsonObject(config.responseJsonSchema)) {
    return { type: 'json_schema', json_schema: { name: 'response', schema: config.responseJsonSchema } };
  }
  if (config.responseSchema !== undefined) {
    return {
      type: 'json_schema',
      json_schema: { name: 'response', schema: jsonSchemaOfGeminiSchema(config.responseSchema) },
    };
  }
  return mimeType === 'application/json' ? { type: 'json_object' } : undefined;
}

/** topK and other settings without an OpenAI equivalent are left out. */
function applyGenerationConfig(result: ChatCompletionRequest, config: GeminiClientGenerationConfig): void {
  if (config.candidateCount !== undefined && config.candidateCount !== 1) {
    throw new UntranslatableRequestError('candidateCount must be 1: one candidate is generated per request');
  }
  if (config.temperature !== undefined) result.temperature = config.temperature;
  if (config.topP !== undefined) result.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) result.max_tokens = config.maxOutputTokens;
  if (config.stopSequences !== undefined && config.stopSequences.length > 0)
    result.stop = config.stopSequences;
  if (config.presencePenalty !== undefined) result.presence_penalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) result.frequency_penalty = config.frequencyPenalty;
  if (config.seed !== undefined) result.seed = config.seed;
  const format = responseFormat(config);
  if (format !== undefined) result.response_format = format;
}

/**
 * Gemini GenerateContentRequest (from `/v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent` clients) → canonical OpenAI chat request. Throws
 * UntranslatableRequestError (400) naming what is wrong or unsupported.
 */
export function geminiClientRequestToChat(
  model: string,
  body: unknown,
  stream: boolean,
): ChatCompletionRequest {
  const request = parseRequest(body);
  if (request.cachedContent !== undefined) {
    throw new UntranslatableRequestError('cachedContent is not supported: send the cached turns in contents');
  }
  const result: ChatCompletionRequest = { model, messages: messagesOf(request) };
  if (stream) {
    result.stream = true;
    result.stream_options = { include_usage: true };
  }
  const declared = functionTools(request.tools ?? []);
  if (declared.length > 0) {
    const { tools, toolChoice } = applyToolConfig(declared, request.toolConfig);
    result.tools = tools;
    if (toolChoice !== undefined) result.tool_choice = toolChoice;
  }
  if (request.generationConfig !== undefined) applyGenerationConfig(result, request.generationConfig);
  return result;
}
