import { completionBudget, completionText, splitIntoPieces } from '../../generation/completion-text';
import { structuredAnswerText, type AnswerFormat } from '../../generation/structured-output';
import { fakeToolArguments } from '../../generation/tool-arguments';
import { chooseTool, type ToolSpec } from '../../generation/tool-choice';
import { jsonReply, SSE_CONTENT_TYPE, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString, type JsonObject } from '../../request-fields';
import { geminiError } from './gemini.family';

function partTexts(content: unknown, into: string[]): void {
  for (const part of asArray(asObject(content)?.['parts']) ?? []) {
    const text = asString(asObject(part)?.['text']);
    if (text !== undefined) into.push(text);
  }
}

function toolSpecs(tools: unknown): ToolSpec[] {
  const specs: ToolSpec[] = [];
  for (const tool of asArray(tools) ?? []) {
    for (const declaration of asArray(asObject(tool)?.['functionDeclarations']) ?? []) {
      const object = asObject(declaration);
      const name = asString(object?.['name']);
      if (name !== undefined)
        specs.push({ name, parameters: object?.['parametersJsonSchema'] ?? object?.['parameters'] });
    }
  }
  return specs;
}

function chosenTool(body: JsonObject, lastMessageText: string): ToolSpec | undefined {
  const config = asObject(asObject(body['toolConfig'])?.['functionCallingConfig']);
  const mode = asString(config?.['mode'])?.toUpperCase();
  const allowed = asArray(config?.['allowedFunctionNames']);
  return chooseTool({
    tools: toolSpecs(body['tools']),
    disabled: mode === 'NONE',
    required: mode === 'ANY',
    forcedName: mode === 'ANY' && allowed !== undefined ? asString(allowed[0]) : undefined,
    lastMessageText,
  });
}

interface GeminiAnswer {
  /** Parts of each stream chunk; the single answer joins them. */
  chunkParts: readonly JsonObject[][];
  /** candidatesTokenCount after each chunk. */
  tokensAfterChunk: readonly number[];
  promptTokens: number;
  finishReason: 'STOP' | 'MAX_TOKENS';
  model: string;
  responseId: string;
}

/** The text a GenerateContentRequest's prompt is counted from (countTokens counts the same). */
export function geminiPromptText(body: JsonObject): { parts: string[]; lastMessageText: string } {
  const parts: string[] = [];
  partTexts(body['systemInstruction'], parts);
  let lastMessageText = '';
  for (const content of asArray(body['contents']) ?? []) {
    const texts: string[] = [];
    partTexts(content, texts);
    parts.push(...texts);
    lastMessageText = texts.join('\n');
  }
  return { parts, lastMessageText };
}

/** `responseMimeType: application/json`, with `responseJsonSchema` or `responseSchema` when given. */
function answerFormat(config: JsonObject | undefined): AnswerFormat {
  if (asString(config?.['responseMimeType']) !== 'application/json') return { kind: 'text' };
  const schema = config?.['responseJsonSchema'] ?? config?.['responseSchema'];
  return schema === undefined ? { kind: 'json_object' } : { kind: 'schema', schema };
}

function answer(request: UpstreamRequest, body: JsonObject, model: string): GeminiAnswer {
  const { parts: promptParts, lastMessageText } = geminiPromptText(body);
  const base = {
    promptTokens: request.promptTokens.count(promptParts),
    model,
    responseId: `fake${request.sequence}`,
  };
  const tool = chosenTool(body, lastMessageText);
  if (tool !== undefined) {
    const args = fakeToolArguments(tool.parameters);
    // Gemini sends a function call whole, in one chunk.
    return {
      ...base,
      chunkParts: [[{ functionCall: { name: tool.name, args } }]],
      tokensAfterChunk: [request.promptTokens.count([JSON.stringify(args)])],
      finishReason: 'STOP',
    };
  }
  const config = asObject(body['generationConfig']);
  const budget = completionBudget(
    request.settings.completionTokens,
    asPositiveInt(config?.['maxOutputTokens']),
  );
  const prose = completionText(budget.tokens, request.settings.chunks);
  const format = answerFormat(config);
  if (format.kind !== 'text') {
    // Structured output comes whole (never cut by maxOutputTokens), so that it always parses.
    const json = structuredAnswerText(format, prose.text);
    const pieces = splitIntoPieces(json, request.settings.chunks);
    const tokens = request.promptTokens.count([json]);
    return {
      ...base,
      chunkParts: pieces.map((text) => [{ text }]),
      tokensAfterChunk: pieces.map((_, index) => Math.floor(((index + 1) * tokens) / pieces.length)),
      finishReason: 'STOP',
    };
  }
  const completion = prose;
  let tokensSoFar = 0;
  const tokensAfterChunk = completion.chunks.map((_, index) => {
    tokensSoFar = Math.floor(((index + 1) * completion.tokens) / completion.chunks.length);
    return tokensSoFar;
  });
  return {
    ...base,
    chunkParts: completion.chunks.map((text) => [{ text }]),
    tokensAfterChunk,
    finishReason: budget.truncated ? 'MAX_TOKENS' : 'STOP',
  };
}

function responseBody(
  result: GeminiAnswer,
  parts: JsonObject[],
  candidatesTokens: number,
  finished: boolean,
): JsonObject {
  const candidate: JsonObject = { content: { parts, role: 'model' }, index: 0 };
  if (finished) candidate['finishReason'] = result.finishReason;
  return {
    candidates: [candidate],
    usageMetadata: {
      promptTokenCount: result.promptTokens,
      candidatesTokenCount: candidatesTokens,
      totalTokenCount: result.promptTokens + candidatesTokens,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: result.promptTokens }],
    },
    modelVersion: result.model,
    responseId: result.responseId,
  };
}

function mergedParts(chunkParts: readonly JsonObject[][]): JsonObject[] {
  const parts = chunkParts.flat();
  if (parts.every((part) => typeof part['text'] === 'string')) {
    return [{ text: parts.map((part) => part['text']).join('') }];
  }
  return parts;
}

function streamReply(result: GeminiAnswer, sse: boolean): Reply {
  const last = result.chunkParts.length - 1;
  const bodies = result.chunkParts.map((parts, index) =>
    JSON.stringify(responseBody(result, parts, result.tokensAfterChunk[index]!, index === last)),
  );
  if (sse) {
    return {
      kind: 'stream',
      contentType: SSE_CONTENT_TYPE,
      head: '',
      deltas: bodies.map((body) => `data: ${body}\r\n\r\n`),
      tail: '',
    };
  }
  // Without alt=sse the API streams one JSON array, element by element.
  return {
    kind: 'stream',
    contentType: 'application/json; charset=UTF-8',
    head: '[',
    deltas: bodies.map((body, index) => (index === 0 ? body : `,\r\n${body}`)),
    tail: ']',
  };
}

/** POST /v1beta|v1/models/{model}:generateContent and :streamGenerateContent (?alt=sse or a JSON array). */
export function generateContent(request: UpstreamRequest, streaming: boolean): Reply {
  const body = asObject(request.body) ?? {};
  const contents = asArray(body['contents']);
  if (contents === undefined || contents.length === 0) {
    return geminiError(400, '* GenerateContentRequest.contents: contents is not specified');
  }
  const result = answer(request, body, request.params['model'] ?? '');
  if (streaming) return streamReply(result, request.query.get('alt') === 'sse');
  const totalTokens = result.tokensAfterChunk[result.tokensAfterChunk.length - 1] ?? 0;
  return jsonReply(200, responseBody(result, mergedParts(result.chunkParts), totalTokens, true));
}

/** GET /v1beta/models */
export function listGeminiModels(request: UpstreamRequest): Reply {
  return jsonReply(200, {
    models: request.settings.models.map((id) => ({
      name: `models/${id}`,
      displayName: id,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    })),
  });
}
