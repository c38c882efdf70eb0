import {
  completionBudget,
  completionText,
  splitIntoPieces,
  type CompletionText,
} from '../../generation/completion-text';
import { structuredAnswerText, type AnswerFormat } from '../../generation/structured-output';
import { fakeToolArguments } from '../../generation/tool-arguments';
import { chooseTool, type ToolSpec } from '../../generation/tool-choice';
import { SSE_CONTENT_TYPE, type Reply, type UpstreamRequest } from '../../fake-upstream.reply';
import { asArray, asObject, asPositiveInt, asString, type JsonObject } from '../../request-fields';
import { missingParameter } from './openai.family';
import { openAiUsageJson } from './usage';

export const DONE_FRAME = 'data: [DONE]\n\n';
const SYSTEM_FINGERPRINT = 'fp_fake_upstream';

/** Text of a message `content`: a string, or the `text` of its text parts. */
export function openAiContentText(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  const texts: string[] = [];
  for (const part of asArray(content) ?? []) {
    const text = asString(asObject(part)?.['text']);
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

function toolSpecs(tools: unknown): ToolSpec[] {
  const specs: ToolSpec[] = [];
  for (const tool of asArray(tools) ?? []) {
    const fn = asObject(asObject(tool)?.['function']);
    const name = asString(fn?.['name']);
    if (name !== undefined) specs.push({ name, parameters: fn?.['parameters'] });
  }
  return specs;
}

function chosenTool(body: JsonObject, lastMessageText: string): ToolSpec | undefined {
  const toolChoice = body['tool_choice'];
  const forced = asObject(toolChoice);
  return chooseTool({
    tools: toolSpecs(body['tools']),
    disabled: toolChoice === 'none',
    required: toolChoice === 'required',
    forcedName: asString(asObject(forced?.['function'])?.['name']),
    lastMessageText,
  });
}

interface ChatAnswer {
  id: string;
  created: number;
  model: string;
  promptTokens: number;
  completionTokens: number;
  finishReason: 'stop' | 'length' | 'tool_calls';
  /** Content chunks, or the argument pieces of the tool call. */
  pieces: readonly string[];
  /** The text answer, or null for a tool call. */
  completion: CompletionText | null;
  toolCall: { id: string; name: string; arguments: string } | null;
}

function answer(
  request: UpstreamRequest,
  body: JsonObject,
  messages: readonly unknown[],
  model: string,
): ChatAnswer {
  const promptParts: string[] = [];
  let lastMessageText = '';
  for (const message of messages) {
    const texts = openAiContentText(asObject(message)?.['content']);
    for (const text of texts) promptParts.push(text);
    lastMessageText = texts.length === 1 ? texts[0]! : texts.join('\n');
  }
  const promptTokens = request.promptTokens.count(promptParts);
  const id = `chatcmpl-fake${request.sequence}`;
  const created = Math.floor(Date.now() / 1000);
  const tool = body['tools'] === undefined ? undefined : chosenTool(body, lastMessageText);
  if (tool !== undefined) {
    const args = JSON.stringify(fakeToolArguments(tool.parameters));
    return {
      id,
      created,
      model,
      promptTokens,
      completionTokens: request.promptTokens.count([args]),
      finishReason: 'tool_calls',
      pieces: splitIntoPieces(args, request.settings.chunks),
      completion: null,
      toolCall: { id: `call_fake${request.sequence}`, name: tool.name, arguments: args },
    };
  }
  const budget = completionBudget(
    request.settings.completionTokens,
    asPositiveInt(body['max_completion_tokens']) ?? asPositiveInt(body['max_tokens']),
  );
  const prose = completionText(budget.tokens, request.settings.chunks);
  const format = answerFormat(body['response_format']);
  const completion = format.kind === 'text' ? prose : jsonCompletion(request, format, prose.text);
  return {
    id,
    created,
    model,
    promptTokens,
    completionTokens: completion.tokens,
    finishReason: budget.truncated && format.kind === 'text' ? 'length' : 'stop',
    pieces: completion.chunks,
    completion,
    toolCall: null,
  };
}

/** `response_format`: `json_schema` (strict or not) or `json_object`; anything else is free text. */
function answerFormat(responseFormat: unknown): AnswerFormat {
  const format = asObject(responseFormat);
  if (format?.['type'] === 'json_object') return { kind: 'json_object' };
  if (format?.['type'] !== 'json_schema') return { kind: 'text' };
  return { kind: 'schema', schema: asObject(format['json_schema'])?.['schema'] };
}

/** A JSON answer, whole: structured output is never cut by max_tokens, so that it always parses. */
function jsonCompletion(
  request: UpstreamRequest,
  format: Exclude<AnswerFormat, { kind: 'text' }>,
  prose: string,
): CompletionText {
  const text = structuredAnswerText(format, prose);
  return {
    text,
    chunks: splitIntoPieces(text, request.settings.chunks),
    tokens: request.promptTokens.count([text]),
  };
}

/** The choice of a text answer depends only on the text and finish reason, so its JSON is built once. */
const textChoiceJson = { stop: new Map<CompletionText, string>(), length: new Map<CompletionText, string>() };

function textChoice(completion: CompletionText, finishReason: 'stop' | 'length'): string {
  const cache = textChoiceJson[finishReason];
  let json = cache.get(completion);
  if (json === undefined) {
    json = JSON.stringify({
      index: 0,
      message: { role: 'assistant', content: completion.text, refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: finishReason,
    });
    if (cache.size >= 256) cache.clear();
    cache.set(completion, json);
  }
  return json;
}

function toolCallChoice(toolCall: NonNullable<ChatAnswer['toolCall']>): string {
  return JSON.stringify({
    index: 0,
    message: {
      role: 'assistant',
      content: null,
      refusal: null,
      annotations: [],
      tool_calls: [
        {
          id: toolCall.id,
          type: 'function',
          function: { name: toolCall.name, arguments: toolCall.arguments },
        },
      ],
    },
    logprobs: null,
    finish_reason: 'tool_calls',
  });
}

/** The `chat.completion` body, assembled from JSON pieces because it is the hottest answer of benchmarks. */
function completionJson(result: ChatAnswer): string {
  const choice =
    result.toolCall !== null
      ? toolCallChoice(result.toolCall)
      : textChoice(result.completion!, result.finishReason === 'length' ? 'length' : 'stop');
  return (
    `{"id":"${result.id}","object":"chat.completion","created":${result.created},"model":${JSON.stringify(result.model)},` +
    `"choices":[${choice}],"usage":${openAiUsageJson(result.promptTokens, result.completionTokens)},` +
    `"service_tier":"default","system_fingerprint":"${SYSTEM_FINGERPRINT}"}`
  );
}

function streamReply(result: ChatAnswer, includeUsage: boolean): Reply {
  // Every chunk shares its envelope; only the delta and finish reason differ, so the envelope is serialised once.
  const envelope =
    `data: {"id":"${result.id}","object":"chat.completion.chunk","created":${result.created},` +
    `"model":${JSON.stringify(result.model)},"service_tier":"default","system_fingerprint":"${SYSTEM_FINGERPRINT}",`;
  const closing = includeUsage ? ',"usage":null}\n\n' : '}\n\n';
  const chunk = (delta: unknown, finishReason: string | null): string =>
    `${envelope}"choices":[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,` +
    `"finish_reason":${finishReason === null ? 'null' : `"${finishReason}"`}}]${closing}`;
  const toolCall = result.toolCall;
  const head =
    toolCall === null
      ? chunk({ role: 'assistant', content: '', refusal: null }, null)
      : chunk(
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                index: 0,
                id: toolCall.id,
                type: 'function',
                function: { name: toolCall.name, arguments: '' },
              },
            ],
          },
          null,
        );
  const deltas = result.pieces.map((piece) =>
    toolCall === null
      ? chunk({ content: piece }, null)
      : chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null),
  );
  let tail = chunk({}, result.finishReason);
  if (includeUsage) {
    tail += `${envelope}"choices":[],"usage":${openAiUsageJson(result.promptTokens, result.completionTokens)}}\n\n`;
  }
  return { kind: 'stream', contentType: SSE_CONTENT_TYPE, head, deltas, tail: tail + DONE_FRAME };
}

/** POST /v1/chat/completions (and Azure's deployment path, whose deployment names the model). */
export function chatCompletions(request: UpstreamRequest): Reply {
  const body = asObject(request.body) ?? {};
  const messages = asArray(body['messages']);
  if (messages === undefined) return missingParameter('messages');
  const model = asString(body['model']) ?? request.params['deployment'];
  if (model === undefined) return missingParameter('model');
  const result = answer(request, body, messages, model);
  if (body['stream'] === true) {
    return streamReply(result, asObject(body['stream_options'])?.['include_usage'] === true);
  }
  return { kind: 'json', status: 200, body: completionJson(result) };
}
